import Testing
@testable import Signals
import TestSupport

@Suite struct IgnoreValuesTests {
    @Test func dropsEveryValue() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-b-c-|", scheduler) { $0.ignoreValues() } == "-------|")
    }

    @Test func forwardsTheError() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-#", scheduler) { $0.ignoreValues() } == "---#")
    }

    @Test func disposingReleasesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c-|")
        let output = record(scheduler, disposeAt: 3, source.signal.ignoreValues())
        #expect(output == "")
        #expect(source.active == 0)
    }
}
