import Testing
@testable import Signals
import TestSupport

@Suite struct CatchErrorTests {
    @Test func switchesToTheFallbackOnError() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-#"), fallback = scheduler.source("-x-|")
        #expect(record(scheduler, source.signal.catchError { _ in fallback.signal }) == "-a-b--x-|")
    }

    @Test func justReturnEmitsTheValueAndCompletes() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-#", scheduler) { $0.catchError(justReturn: "x") } == "-a-(x|)")
    }

    @Test func theFallbacksErrorIsForwarded() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-#"), fallback = scheduler.source("-x#")
        #expect(record(scheduler, source.signal.catchError { _ in fallback.signal }) == "--x#")
    }

    @Test func completionPassesWithoutTheFallback() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a|"), fallback = scheduler.source("-x|")
        #expect(record(scheduler, source.signal.catchError { _ in fallback.signal }) == "-a|")
        #expect(fallback.subscriptions == 0)
    }

    @Test func disposingDisposesTheFallback() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-#"), fallback = scheduler.source("-x-y|")
        let output = record(scheduler, disposeAt: 2, horizon: 2, source.signal.catchError { _ in fallback.signal })
        #expect(output == "--x")
        #expect(source.active == 0 && fallback.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
