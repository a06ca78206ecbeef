import Testing
@testable import Signals
import TestSupport

@Suite struct TakeWhileTests {
    @Test func completesAtTheFirstFailingValue() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-1-2-5-1-|")
        #expect(record(scheduler, source.signal.takeWhile { Int($0)! < 3 }) == "-1-2-|")
        #expect(source.active == 0)
    }

    @Test func forwardsTheError() {
        let scheduler = TestScheduler()
        #expect(marbles("-1-#", scheduler) { $0.takeWhile { _ in true } } == "-1-#")
    }

    @Test func forwardsCompletion() {
        let scheduler = TestScheduler()
        #expect(marbles("-1-|", scheduler) { $0.takeWhile { _ in true } } == "-1-|")
    }

    @Test func stopsASynchronousInfiniteSource() {
        let (log, _) = Signal.from(1...).takeWhile { $0 < 3 }.log()
        #expect(log.descriptions == ["next(1)", "next(2)", "completed"])
    }

    @Test func disposingReleasesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-1-2-3-|")
        let output = record(scheduler, disposeAt: 2, horizon: 2, source.signal.takeWhile { _ in true })
        #expect(output == "-1")
        #expect(source.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
