import Testing
@testable import Signals
import TestSupport

@Suite struct FlatMapLatestTests {
    @Test func aNewValueDisposesThePreviousInner() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a---b-------|")
        let inners = ["a": scheduler.source("-1-2-3|"), "b": scheduler.source("-4-5|")]
        #expect(record(scheduler, source.signal.flatMapLatest { inners[$0]!.signal }) == "--1-2-4-5----|")
        #expect(inners["a"]!.active == 0)
    }

    @Test func waitsForTheCurrentInnerToComplete() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a|"), inner = scheduler.source("--1--2|")
        #expect(record(scheduler, source.signal.flatMapLatest { _ in inner.signal }) == "---1--2|")
    }

    @Test func theSourcesErrorDisposesTheInner() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a--#"), inner = scheduler.source("-1-2-3|")
        #expect(record(scheduler, source.signal.flatMapLatest { _ in inner.signal }) == "--1-#")
        #expect(inner.active == 0)
    }

    @Test func disposingDisposesTheSourceAndTheInner() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a---b-|"), inner = scheduler.source("-1-2-3|")
        let output = record(scheduler, disposeAt: 2, horizon: 2, source.signal.flatMapLatest { _ in inner.signal })
        #expect(output == "--1")
        #expect(source.active == 0 && inner.active == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aSubjectInnerIsReleasedOnSwitch() {
        let subjects = [PublishSubject<Int>(), PublishSubject<Int>()]
        let outer = PublishSubject<Int>()
        let (log, _) = outer.asSignal().flatMapLatest { subjects[$0].asSignal() }.log()
        outer.sendNext(0)
        subjects[0].sendNext(1)
        outer.sendNext(1)
        subjects[0].sendNext(2)
        subjects[1].sendNext(3)
        #expect(log.values == [1, 3])
    }
}
