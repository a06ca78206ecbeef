import Testing
@testable import Signals
import TestSupport

@Suite struct SkipTests {
    @Test func dropsTheFirstValues() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-b-c-d-|", scheduler) { $0.skip(2) } == "-----c-d-|")
    }

    @Test func forwardsTheErrorWhileSkipping() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-#", scheduler) { $0.skip(2) } == "---#")
    }

    @Test func forwardsCompletionWhileSkipping() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-|", scheduler) { $0.skip(2) } == "---|")
    }

    @Test func disposingReleasesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c-|")
        let output = record(scheduler, disposeAt: 4, horizon: 4, source.signal.skip(1))
        #expect(output == "---b")
        #expect(source.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
