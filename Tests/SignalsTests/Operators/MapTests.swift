import Testing
@testable import Signals
import TestSupport

@Suite struct MapTests {
    @Test func transformsEveryValue() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-b-c-|", scheduler) { $0.map { $0.uppercased() } } == "-A-B-C-|")
    }

    @Test func forwardsTheError() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-#", scheduler) { $0.map { $0.uppercased() } } == "-A-#")
    }

    @Test func forwardsCompletion() {
        let scheduler = TestScheduler()
        #expect(marbles("---|", scheduler) { $0.map { $0.uppercased() } } == "---|")
    }

    @Test func disposingReleasesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c-|")
        let output = record(scheduler, disposeAt: 3, horizon: 3, source.signal.map { $0.uppercased() })
        #expect(output == "-A-B")
        #expect(source.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
