import Testing
@testable import Signals
import TestSupport

/// Renders an array value as `[ab]` in marble output.
func joined(_ values: [String]) -> String { "[\(values.joined())]" }

@Suite struct BufferTests {
    @Test func emitsFullArrays() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-b-c-d-e-|", scheduler) { $0.buffer(count: 2).map(joined) } == "---[ab]---[cd]---([e]|)")
    }

    @Test func dropsThePartialArrayOnError() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-b-c-#", scheduler) { $0.buffer(count: 2).map(joined) } == "---[ab]---#")
    }

    @Test func emptySourceCompletesWithoutAnArray() {
        let scheduler = TestScheduler()
        #expect(marbles("--|", scheduler) { $0.buffer(count: 2).map(joined) } == "--|")
    }

    @Test func disposingReleasesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c-|")
        let output = record(scheduler, disposeAt: 2, source.signal.buffer(count: 2).map(joined))
        #expect(output == "")
        #expect(source.active == 0)
    }
}
