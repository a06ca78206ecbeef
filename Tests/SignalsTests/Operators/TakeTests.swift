import Testing
@testable import Signals
import TestSupport

@Suite struct TakeTests {
    @Test func completesAfterCountValuesAndDisposesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c-d-|")
        #expect(record(scheduler, source.signal.take(2)) == "-a-(b|)")
        #expect(source.active == 0)
    }

    @Test func forwardsAnEarlierError() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-#", scheduler) { $0.take(2) } == "-a-#")
    }

    @Test func forwardsAnEarlierCompletion() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-|", scheduler) { $0.take(2) } == "-a-|")
    }

    @Test func zeroCompletesWithoutSubscribing() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-|")
        #expect(record(scheduler, source.signal.take(0)) == "|")
        #expect(source.subscriptions == 0)
    }

    @Test func stopsASynchronousInfiniteSource() {
        let (log, _) = Signal.from(1...).take(3).log()
        #expect(log.descriptions == ["next(1)", "next(2)", "next(3)", "completed"])
    }

    @Test func disposingReleasesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c-|")
        let output = record(scheduler, disposeAt: 2, horizon: 2, source.signal.take(3))
        #expect(output == "-a")
        #expect(source.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
