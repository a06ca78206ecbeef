import Testing
@testable import Signals
import TestSupport

@Suite struct ConcatMapTests {
    @Test func playsInnerSignalsOneAtATimeInOrder() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b---------|")
        let inners = ["a": scheduler.source("-1-2|"), "b": scheduler.source("-3-4|")]
        let output = record(scheduler, horizon: 4, source.signal.concatMap { inners[$0]!.signal })
        #expect(output == "--1-2")
        #expect(inners["b"]!.subscriptions == 0)
        scheduler.advance(by: .ticks(20))
        #expect(inners["b"]!.subscriptions == 1)
    }

    @Test func completesAfterTheSourceAndEveryQueuedSignal() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-(ab)|")
        let inners = ["a": scheduler.source("-1-2|"), "b": scheduler.source("-3-4|")]
        #expect(record(scheduler, source.signal.concatMap { inners[$0]!.signal }) == "--1-2-3-4|")
    }

    @Test func anInnerErrorEndsItAndQueuedSignalsNeverStart() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-ab---|")
        let inners = ["a": scheduler.source("-1#"), "b": scheduler.source("-3-4|")]
        #expect(record(scheduler, source.signal.concatMap { inners[$0]!.signal }) == "--1#")
        #expect(source.active == 0 && inners["b"]!.subscriptions == 0)
    }

    @Test func disposingDisposesTheSourceAndTheCurrentInner() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-ab---|")
        let inners = ["a": scheduler.source("-1-2|"), "b": scheduler.source("-3-4|")]
        let output = record(scheduler, disposeAt: 3, horizon: 3, source.signal.concatMap { inners[$0]!.signal })
        #expect(output == "--1")
        #expect(source.active == 0 && inners["a"]!.active == 0 && inners["b"]!.subscriptions == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
