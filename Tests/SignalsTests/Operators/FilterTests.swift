import Testing
@testable import Signals
import TestSupport

@Suite struct FilterTests {
    @Test func letsThroughMatchingValues() {
        let scheduler = TestScheduler()
        #expect(marbles("-1-2-3-4-|", scheduler) { $0.filter { Int($0)! % 2 == 0 } } == "---2---4-|")
    }

    @Test func forwardsTheError() {
        let scheduler = TestScheduler()
        #expect(marbles("-1-2-#", scheduler) { $0.filter { $0 == "2" } } == "---2-#")
    }

    @Test func forwardsCompletion() {
        let scheduler = TestScheduler()
        #expect(marbles("-1-|", scheduler) { $0.filter { _ in false } } == "---|")
    }

    @Test func disposingReleasesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-1-2-3-|")
        let output = record(scheduler, disposeAt: 4, horizon: 4, source.signal.filter { $0 != "2" })
        #expect(output == "-1")
        #expect(source.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
