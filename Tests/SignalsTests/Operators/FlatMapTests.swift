import Testing
@testable import Signals
import TestSupport

@Suite struct FlatMapTests {
    @Test func mergesTheInnerSignals() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-------|")
        let inners = ["a": scheduler.source("-1---2|"), "b": scheduler.source("-3-4|")]
        #expect(record(scheduler, source.signal.flatMap { inners[$0]!.signal }) == "--1-3-(24)----|")
    }

    @Test func completesWhenTheSourceAndEveryInnerHaveCompleted() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a|"), inner = scheduler.source("--1--2|")
        #expect(record(scheduler, source.signal.flatMap { _ in inner.signal }) == "---1--2|")
    }

    @Test func anInnerErrorDisposesEverything() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b---|")
        let inners = ["a": scheduler.source("-1-#"), "b": scheduler.source("-----5|")]
        #expect(record(scheduler, source.signal.flatMap { inners[$0]!.signal }) == "--1-#")
        #expect(source.active == 0 && inners["b"]!.active == 0)
    }

    @Test func disposingDisposesTheSourceAndEveryInner() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b---|")
        let inners = ["a": scheduler.source("-1---2|"), "b": scheduler.source("-3-4|")]
        let output = record(scheduler, disposeAt: 4, horizon: 4, source.signal.flatMap { inners[$0]!.signal })
        #expect(output == "--1-3")
        #expect(source.active == 0 && inners["a"]!.active == 0 && inners["b"]!.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
