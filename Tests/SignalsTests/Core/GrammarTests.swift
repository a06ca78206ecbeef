import Dispatch
import Synchronization
import Testing
@testable import Signals

/// The event grammar under concurrency: `next* (error | completed)?`, one
/// event at a time per observer, however many threads send.
@Suite struct GrammarTests {
    /// Checks, inside a handler, that no other event is being handled at the
    /// same time, and that nothing follows a terminal event.
    private final class GrammarProbe: Sendable {
        private let inside = Atomic<Int>(0)
        private let ended = Atomic<Bool>(false)
        let overlaps = Counter()
        let afterEnd = Counter()
        let values = Counter()

        func handle<T>(_ event: Event<T>) {
            if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 { overlaps.increment() }
            if ended.load(ordering: .acquiring) { afterEnd.increment() }
            if event.isTerminal { ended.store(true, ordering: .releasing) } else { values.increment() }
            // Stay inside long enough for an overlap to be seen if one happens.
            for _ in 0..<50 { _ = inside.load(ordering: .relaxed) }
            inside.subtract(1, ordering: .acquiringAndReleasing)
        }
    }

    @Test func concurrentSendsIntoOneObserverNeverOverlapAndNothingFollowsTheEnd() {
        for _ in 0..<20 {
            let probe = GrammarProbe()
            let holder = Locked<Observer<Int>?>(nil)
            Signal<Int> { observer in
                holder.withLock { $0 = observer }
                return ActionDisposable {}
            }.subscribe { probe.handle($0) }
            let observer = holder.withLock { $0 }!
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for value in 0..<500 { observer.sendNext(value) }
                if thread == 2 { observer.sendCompleted() }
                for value in 0..<50 { observer.sendNext(value) }
            }
            #expect(probe.overlaps.count == 0)
            #expect(probe.afterEnd.count == 0)
            #expect(observer.isStopped)
        }
    }

    @Test func concurrentSendsIntoASubjectReachEachObserverOneAtATime() {
        let subject = PublishSubject<Int>()
        let probes = [GrammarProbe(), GrammarProbe()]
        for probe in probes { subject.subscribe { probe.handle($0) } }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for value in 0..<2_000 { subject.sendNext(value) }
        }
        subject.sendCompleted()
        subject.sendNext(-1)
        for probe in probes {
            #expect(probe.overlaps.count == 0)
            #expect(probe.afterEnd.count == 0)
            #expect(probe.values.count == 8_000, "nothing lost under contention")
        }
    }

    @Test func concurrentConnectsSubscribeOnce() {
        for _ in 0..<50 {
            let subscriptions = Counter()
            let connection = Signal<Int> { _ in
                subscriptions.increment()
                return ActionDisposable {}
            }.publish()
            DispatchQueue.concurrentPerform(iterations: 8) { _ in connection.connect() }
            #expect(subscriptions.count == 1)
        }
    }

    @Test func concurrentDisposesOfOneSubscriptionRunTheCleanupOnce() {
        for _ in 0..<100 {
            let cleanups = Counter()
            let subscription = Signal<Int> { _ in
                ActionDisposable { cleanups.increment() }
            }.subscribe { _ in }
            DispatchQueue.concurrentPerform(iterations: 8) { _ in subscription.dispose() }
            #expect(cleanups.count == 1)
            #expect(subscription.isDisposed)
        }
    }

    /// The ThreadSanitizer stress test: sends, subscribes and disposes at
    /// once on one subject (`make test-tsan` runs the suite under TSan).
    @Test func stressConcurrentSendsSubscribesAndDisposes() {
        let subject = PublishSubject<Int>()
        let delivered = Counter()
        let keeper = subject.subscribe { _ in delivered.increment() }
        DispatchQueue.concurrentPerform(iterations: 6) { thread in
            switch thread % 3 {
            case 0:
                for value in 0..<3_000 { subject.sendNext(value) }
            case 1:
                for _ in 0..<500 {
                    let subscription = subject.asSignal().map { $0 + 1 }.subscribe { _ in }
                    subscription.dispose()
                }
            default:
                for _ in 0..<500 {
                    let subscription = subject.subscribe { event in
                        if event.value == 7 { subject.sendNext(-7) }  // re-entrant send
                    }
                    subscription.dispose()
                    subscription.dispose()
                }
            }
        }
        subject.sendCompleted()
        keeper.dispose()
        #expect(delivered.count >= 6_000)
    }
}
