import Testing
@testable import Signals
import TestSupport

@Suite struct ReduceTests {
    @Test func emitsTheFinalResultOnCompletion() {
        let scheduler = TestScheduler()
        #expect(marbles("-1-2-3-|", scheduler) { $0.map { Int($0)! }.reduce(0, +) } == "-------(6|)")
    }

    @Test func forwardsTheErrorWithoutAResult() {
        let scheduler = TestScheduler()
        #expect(marbles("-1-2-#", scheduler) { $0.map { Int($0)! }.reduce(0, +) } == "-----#")
    }

    @Test func anEmptySourceGivesTheSeed() {
        let scheduler = TestScheduler()
        #expect(marbles("--|", scheduler) { $0.map { Int($0)! }.reduce(7, +) } == "--(7|)")
    }

    @Test func disposingReleasesTheSourceAndEmitsNothing() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-1-2-3-|")
        let output = record(scheduler, disposeAt: 3, source.signal.map { Int($0)! }.reduce(0, +))
        #expect(output == "")
        #expect(source.active == 0)
    }
}
