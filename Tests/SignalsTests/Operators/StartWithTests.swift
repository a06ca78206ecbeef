import Testing
@testable import Signals
import TestSupport

@Suite struct StartWithTests {
    @Test func emitsTheValuesFirst() {
        let scheduler = TestScheduler()
        #expect(marbles("---c-|", scheduler) { $0.startWith("a", "b") } == "(ab)--c-|")
    }

    @Test func forwardsTheError() {
        let scheduler = TestScheduler()
        #expect(marbles("-#", scheduler) { $0.startWith("a") } == "a#")
    }

    @Test func forwardsCompletion() {
        let scheduler = TestScheduler()
        #expect(marbles("|", scheduler) { $0.startWith("a") } == "(a|)")
    }

    @Test func doesNotSubscribeWhenTheSubscriberStoppedEarly() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-c-|")
        #expect(record(scheduler, source.signal.startWith("a", "b").take(1)) == "(a|)")
        #expect(source.subscriptions == 0)
    }

    @Test func disposingReleasesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-b-c-|")
        let output = record(scheduler, disposeAt: 2, horizon: 2, source.signal.startWith("a"))
        #expect(output == "ab")
        #expect(source.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
