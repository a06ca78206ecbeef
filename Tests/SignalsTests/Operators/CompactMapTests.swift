import Testing
@testable import Signals
import TestSupport

@Suite struct CompactMapTests {
    @Test func dropsNilResults() {
        let scheduler = TestScheduler()
        #expect(marbles("-1-x-3-|", scheduler) { $0.compactMap { Int($0) } } == "-1---3-|")
    }

    @Test func forwardsTheError() {
        let scheduler = TestScheduler()
        #expect(marbles("-1-x-#", scheduler) { $0.compactMap { Int($0) } } == "-1---#")
    }

    @Test func forwardsCompletion() {
        let scheduler = TestScheduler()
        #expect(marbles("-x-|", scheduler) { $0.compactMap { Int($0) } } == "---|")
    }

    @Test func disposingReleasesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-1-2-3-|")
        let output = record(scheduler, disposeAt: 2, horizon: 2, source.signal.compactMap { Int($0) })
        #expect(output == "-1")
        #expect(source.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
