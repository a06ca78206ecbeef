import Testing
@testable import Signals
import TestSupport

@Suite struct DistinctUntilChangedTests {
    @Test func dropsRepeatedValues() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-a-b-a-a-|", scheduler) { $0.distinctUntilChanged() } == "-a---b-a---|")
    }

    @Test func comparesByKey() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-A-b-B-|", scheduler) { $0.distinctUntilChanged(by: { $0.lowercased() }) } == "-a---b---|")
    }

    @Test func forwardsTheError() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-a-#", scheduler) { $0.distinctUntilChanged() } == "-a---#")
    }

    @Test func forwardsCompletion() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-a|", scheduler) { $0.distinctUntilChanged() } == "-a--|")
    }

    @Test func disposingReleasesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c-|")
        let output = record(scheduler, disposeAt: 3, horizon: 3, source.signal.distinctUntilChanged())
        #expect(output == "-a-b")
        #expect(source.active == 0)
    }
}
