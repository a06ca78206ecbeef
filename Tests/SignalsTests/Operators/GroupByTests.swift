import Testing
@testable import Signals
import TestSupport

@Suite struct GroupByTests {
    private static func isUppercase(_ value: String) -> Bool { value.uppercased() == value }

    @Test func emitsAGroupPerKeyOnItsFirstValue() {
        let scheduler = TestScheduler()
        let output = marbles("-a-B-c-D-|", scheduler) { $0.groupBy(Self.isUppercase).map { $0.key ? "U" : "l" } }
        #expect(output == "-l-U-----|")
    }

    @Test func eachGroupGetsItsValuesAndCompletesWithTheSource() {
        let scheduler = TestScheduler()
        let groups = Locked<[Bool: EventLog<String>]>([:])
        let source = scheduler.source("-a-B-c-D-|")
        source.signal.groupBy(Self.isUppercase).subscribe(onNext: { group in
            let log = EventLog<String>()
            groups.withLock { $0[group.key] = log }
            group.subscribe { log.append($0) }
        })
        scheduler.advance(by: .seconds(20))
        let logs = groups.withLock { $0 }
        #expect(logs[false]?.descriptions == ["next(a)", "next(c)", "completed"])
        #expect(logs[true]?.descriptions == ["next(B)", "next(D)", "completed"])
    }

    @Test func anErrorReachesEveryGroup() {
        let scheduler = TestScheduler()
        let groupLog = EventLog<String>()
        let source = scheduler.source("-a-#")
        let (log, _) = source.signal.groupBy { _ in 0 }.log()
        scheduler.advance(by: .seconds(1))   // the group arrives with "a"
        log.values.first?.subscribe { groupLog.append($0) }
        scheduler.advance(by: .seconds(5))
        #expect(log.descriptions.last == "error(#)")
        #expect(groupLog.descriptions == ["error(#)"])
    }

    @Test func disposingDisposesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-B-c-|")
        let output = record(scheduler, disposeAt: 2, horizon: 2, source.signal.groupBy(Self.isUppercase).map { "\($0.key)".prefix(1) })
        #expect(output == "-f")
        #expect(source.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
