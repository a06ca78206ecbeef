import Testing
@testable import Signals
import TestSupport

@Suite struct ConcatTests {
    @Test func subscribesToTheNextOnlyWhenThePreviousCompletes() {
        let scheduler = TestScheduler()
        let a = scheduler.source("-1-2|"), b = scheduler.source("-3-|")
        #expect(record(scheduler, horizon: 3, Signal.concat([a.signal, b.signal])) == "-1-2")
        #expect(b.subscriptions == 0)
        scheduler.advance(by: .ticks(10))
        #expect(b.subscriptions == 1)
    }

    @Test func playsTheSignalsInOrder() {
        let scheduler = TestScheduler()
        let a = scheduler.source("-1-2|"), b = scheduler.source("-3-|")
        #expect(record(scheduler, a.signal.concat(b.signal)) == "-1-2-3-|")
    }

    @Test func anErrorEndsItWithoutSubscribingTheRest() {
        let scheduler = TestScheduler()
        let a = scheduler.source("-1-#"), b = scheduler.source("-3-|")
        #expect(record(scheduler, Signal.concat(a.signal, b.signal)) == "-1-#")
        #expect(b.subscriptions == 0)
    }

    @Test func anEmptyListCompletesAtOnce() {
        let scheduler = TestScheduler()
        #expect(record(scheduler, Signal<String>.concat([])) == "|")
    }

    @Test func disposingMidwayDisposesTheCurrentSignal() {
        let scheduler = TestScheduler()
        let a = scheduler.source("-1|"), b = scheduler.source("-2-3-|"), c = scheduler.source("-4|")
        #expect(record(scheduler, disposeAt: 4, horizon: 4, Signal.concat([a.signal, b.signal, c.signal])) == "-1-2")
        #expect(a.active == 0 && b.active == 0)
        #expect(c.subscriptions == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func manySynchronousSignalsPlayWithoutRecursion() {
        let (log, _) = Signal.concat(Array(repeating: Signal.just(1), count: 50_000)).reduce(0, +).log()
        #expect(log.descriptions == ["next(50000)", "completed"])
    }
}
