import Dispatch
import Testing
@testable import Signals
import TestSupport

/// Chains of the synchronous operators (`map`, `filter`, `compactMap`) over
/// a source that sends one event at a time, where each subscription's stage
/// is one object (`MapStage`, `FilterStage`, `CompactMapStage`,
/// `SubscriberStage`) and a `map` followed by a `filter` is one fused stage
/// (`MapFilterStage`): the same values, order, completion, errors, disposal,
/// re-entrancy and thread safety as a stage made of an observer and a
/// closure per operator.
@Suite struct MapFilterChainTests {
    /// What the closures of a chain saw, in call order.
    private final class Trace: Sendable {
        private let lines = Locked<[String]>([])
        func callAsFunction(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
        func count(_ line: String) -> Int { all.filter { $0 == line }.count }
    }

    /// 1 → 21 and 5 → 61 come out; 2 and 4 stop at `f1`, 3 at `c`.
    private func chain(_ source: Signal<Int>, _ trace: Trace) -> Signal<Int> {
        source
            .map { trace("m1(\($0))"); return $0 + 1 }
            .filter { trace("f1(\($0))"); return $0.isMultiple(of: 2) }
            .compactMap { trace("c(\($0))"); return $0 == 4 ? nil : $0 * 10 }
            .map { trace("m2(\($0))"); return $0 + 1 }
    }

    private func subscribe(_ signal: Signal<Int>, into log: EventLog<Int>) -> any Disposable {
        signal.subscribe(
            onNext: { log.append(.next($0)) },
            onError: { log.append(.error($0)) },
            onCompleted: { log.append(.completed) })
    }

    @Test func eachClosureRunsOncePerValueInStageOrder() {
        let subject = PublishSubject<Int>(), trace = Trace(), log = EventLog<Int>()
        let subscription = subscribe(chain(subject.asSignal(), trace), into: log)
        for value in 1...5 { subject.sendNext(value) }
        subject.sendCompleted()
        #expect(log.descriptions == ["next(21)", "next(61)", "completed"])
        #expect(trace.all == [
            "m1(1)", "f1(2)", "c(2)", "m2(20)",
            "m1(2)", "f1(3)",
            "m1(3)", "f1(4)", "c(4)",
            "m1(4)", "f1(5)",
            "m1(5)", "f1(6)", "c(6)", "m2(60)",
        ])
        #expect(subject.core.observers.isEmpty)
        subscription.dispose()
    }

    @Test func anErrorPassesEveryStageWithoutCallingTheClosures() {
        let subject = PublishSubject<Int>(), trace = Trace(), log = EventLog<Int>()
        let subscription = subscribe(chain(subject.asSignal(), trace), into: log)
        subject.sendNext(1)
        subject.sendError(MarbleError())
        subject.sendNext(5)
        #expect(log.descriptions == ["next(21)", "error(#)"])
        #expect(trace.all == ["m1(1)", "f1(2)", "c(2)", "m2(20)"])
        subscription.dispose()
    }

    @Test func completionAndErrorReachTheEndOnVirtualTime() {
        let scheduler = TestScheduler()
        let stages: (Signal<String>) -> Signal<String> = {
            $0.map { $0.uppercased() }.filter { $0 != "B" }.compactMap { $0 }.map { $0 + "" }
        }
        #expect(marbles("-a-b-c-|", scheduler, stages) == "-A---C-|")
        #expect(marbles("-a-b-#", scheduler, stages) == "-A---#")
    }

    @Test func disposingTheSubscriptionDisposesTheSourceThroughEveryStage() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c-d-|")
        let output = record(scheduler, disposeAt: 3, horizon: 3,
                            source.signal.map { $0.uppercased() }.filter { _ in true }.compactMap { $0 }.map { $0 })
        #expect(output == "-A-B")
        #expect(source.active == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func disposingFromInsideAStageStopsTheStagesAfterIt() {
        let subject = PublishSubject<Int>(), trace = Trace(), log = EventLog<Int>()
        let subscription = SerialDisposable()
        let signal = subject.asSignal()
            .map { trace("m1(\($0))"); return $0 + 1 }
            .filter { value in
                trace("f1(\(value))")
                if value == 3 { subscription.dispose() }
                return true
            }
            .map { trace("m2(\($0))"); return $0 }
        subscription.disposable = subscribe(signal, into: log)
        subject.sendNext(1)
        subject.sendNext(2)
        subject.sendNext(3)
        #expect(log.descriptions == ["next(2)"])
        #expect(trace.all == ["m1(1)", "f1(2)", "m2(2)", "m1(2)", "f1(3)"])
        #expect(subject.core.observers.isEmpty)
    }

    @Test func disposingFromInsideTheMapOfAFusedPairSkipsItsFilter() {
        let subject = PublishSubject<Int>(), trace = Trace(), log = EventLog<Int>()
        let subscription = SerialDisposable()
        let signal = subject.asSignal()
            .map { value in
                trace("m1(\(value))")
                if value == 2 { subscription.dispose() }
                return value
            }
            .filter { trace("f1(\($0))"); return true }
        subscription.disposable = subscribe(signal, into: log)
        for value in 1...3 { subject.sendNext(value) }
        #expect(log.descriptions == ["next(1)"])
        #expect(trace.all == ["m1(1)", "f1(1)", "m1(2)"])
        #expect(subject.core.observers.isEmpty)
    }

    @Test func aMapSubscribedDirectlyAndThroughAFilterRunsOncePerSubscription() {
        let subject = PublishSubject<Int>(), trace = Trace()
        let mapped = subject.asSignal().map { trace("m(\($0))"); return $0 * 10 }
        let direct = EventLog<Int>(), filtered = EventLog<Int>()
        let first = subscribe(mapped, into: direct)
        let second = subscribe(mapped.filter { trace("f(\($0))"); return $0 > 10 }, into: filtered)
        subject.sendNext(1)
        subject.sendNext(2)
        #expect(direct.values == [10, 20])
        #expect(filtered.values == [20])
        #expect(trace.all == ["m(1)", "m(1)", "f(10)", "m(2)", "m(2)", "f(20)"])
        second.dispose()
        subject.sendNext(3)
        #expect(direct.values == [10, 20, 30])
        #expect(filtered.values == [20])
        first.dispose()
        #expect(subject.core.observers.isEmpty)
    }

    @Test func takeInTheMiddleStopsTheStagesBeforeIt() {
        let subject = PublishSubject<Int>(), trace = Trace(), log = EventLog<Int>()
        let signal = subject.asSignal()
            .map { trace("m1(\($0))"); return $0 }
            .filter { trace("f1(\($0))"); return true }
            .take(2)
            .map { trace("m2(\($0))"); return $0 * 10 }
        let subscription = subscribe(signal, into: log)
        for value in 1...4 { subject.sendNext(value) }
        #expect(log.descriptions == ["next(10)", "next(20)", "completed"])
        #expect(trace.all == ["m1(1)", "f1(1)", "m2(1)", "m1(2)", "f1(2)", "m2(2)"])
        #expect(subject.core.observers.isEmpty)
        subscription.dispose()
    }

    @Test func aSynchronousEndlessSourceStopsWhenTheChainIsDone() {
        let values = EventLog<Int>()
        let subscription = subscribe(Signal.from(1...).map { $0 * 2 }.filter { $0 > 2 }.take(3), into: values)
        #expect(values.descriptions == ["next(4)", "next(6)", "next(8)", "completed"])
        subscription.dispose()
    }

    @Test func anIntermediateSignalSubscribedTwiceRunsItsClosuresOncePerSubscription() {
        let subject = PublishSubject<Int>(), trace = Trace()
        let shared = chain(subject.asSignal(), trace)
        let doubled = EventLog<Int>(), large = EventLog<Int>()
        let first = subscribe(shared.map { $0 * 2 }, into: doubled)
        let second = subscribe(shared.filter { $0 > 30 }, into: large)
        for value in 1...5 { subject.sendNext(value) }
        #expect(doubled.values == [42, 122])
        #expect(large.values == [61])
        for value in 1...5 { #expect(trace.count("m1(\(value))") == 2) }
        #expect(trace.count("m2(60)") == 2)

        first.dispose()
        subject.sendNext(5)
        #expect(trace.count("m1(5)") == 3)
        #expect(doubled.values == [42, 122])
        #expect(large.values == [61, 61])
        second.dispose()
        #expect(subject.core.observers.isEmpty)
    }

    @Test func aSendFromInsideAStageIsDeliveredAfterTheCurrentValue() {
        let subject = PublishSubject<Int>(), trace = Trace(), log = EventLog<Int>()
        let signal = subject.asSignal()
            .map { value in
                trace("m1(\(value))")
                if value == 1 { subject.sendNext(5) }
                return value + 1
            }
            .filter { trace("f1(\($0))"); return true }
        let subscription = subscribe(signal, into: log)
        subject.sendNext(1)
        #expect(log.values == [2, 6])
        #expect(trace.all == ["m1(1)", "f1(2)", "m1(5)", "f1(6)"])
        subscription.dispose()
    }

    @Test func stagesAfterASourceWithConcurrentSendersNeverOverlap() {
        // `Signal { }` serializes its observer, so the stages after the
        // first are fed one event at a time though two threads send at once.
        let source = Signal<Int> { observer in
            DispatchQueue.concurrentPerform(iterations: 2) { side in
                for value in 0..<2_000 { observer.sendNext(side * 10_000 + value) }
            }
            observer.sendCompleted()
            return ActionDisposable {}
        }
        let inside = Locked(0), overlapped = Locked(false)
        let log = EventLog<Int>()
        let subscription = subscribe(source.map { $0 }.filter { _ in true }.map { value in
            if inside.withLock({ $0 += 1; return $0 }) > 1 { overlapped.withLock { $0 = true } }
            inside.withLock { $0 -= 1 }
            return value
        }, into: log)
        #expect(log.values.count == 4_000)
        #expect(log.descriptions.last == "completed")
        #expect(!overlapped.withLock { $0 })
        subscription.dispose()
    }

    @Test func disposingReleasesWhatTheStagesAndTheSubscriberCaptured() {
        final class Token: Sendable {}
        let subject = PublishSubject<Int>()
        weak var weakToken: Token?
        let subscription: any Disposable
        do {
            let token = Token()
            weakToken = token
            subscription = subject.asSignal()
                .map { value in _ = token; return value }
                .filter { _ in _ = token; return true }
                .compactMap { value in _ = token; return value }
                .subscribe(onNext: { _ in _ = token })
            subject.sendNext(1)
        }
        #expect(weakToken != nil)
        subscription.dispose()
        #expect(weakToken == nil)
    }
}
