import Testing
@testable import Signals

/// A source's `sendNextFromSource` into an observer made by
/// `subscribe(onNext:onError:onCompleted:)` hands values straight to
/// `onNext` (no `Event` around them); the grammar and disposal must hold on
/// that path as on the general one.
@Suite struct SubscribeOnNextTests {
    /// A source that keeps sending after it completed and after it was
    /// disposed, as a careless producer would.
    private func careless(_ sent: Counter, completeAfter: Int?) -> (Signal<Int>, Locked<Observer<Int>?>) {
        let captured = Locked<Observer<Int>?>(nil)
        let signal = Signal<Int>.serial { observer in
            captured.withLock { $0 = observer }
            for value in 1...3 {
                sent.increment()
                observer.sendNextFromSource(value)
                if value == completeAfter { observer.sendCompleted() }
            }
            return ActionDisposable {}
        }
        return (signal, captured)
    }

    @Test func valuesArriveInOrderThenCompletion() {
        let values = Locked<[Int]>([])
        let completed = Counter()
        let (signal, _) = careless(Counter(), completeAfter: 3)
        signal.subscribe(onNext: { value in values.withLock { $0.append(value) } }, onCompleted: { completed.increment() })
        #expect(values.withLock { $0 } == [1, 2, 3])
        #expect(completed.count == 1)
    }

    @Test func nothingArrivesAfterCompletion() {
        let values = Locked<[Int]>([])
        let (signal, _) = careless(Counter(), completeAfter: 1)
        signal.subscribe(onNext: { value in values.withLock { $0.append(value) } })
        #expect(values.withLock { $0 } == [1])
    }

    @Test func nothingArrivesAfterDispose() {
        let values = Locked<[Int]>([])
        let (signal, observer) = careless(Counter(), completeAfter: nil)
        let subscription = signal.subscribe(onNext: { value in values.withLock { $0.append(value) } })
        subscription.dispose()
        observer.withLock { $0 }?.sendNextFromSource(4)
        #expect(values.withLock { $0 } == [1, 2, 3])
    }

    @Test func withoutOnNextValuesAreDroppedAndCompletionArrives() {
        let completed = Counter()
        let (signal, _) = careless(Counter(), completeAfter: 3)
        signal.subscribe(onCompleted: { completed.increment() })
        #expect(completed.count == 1)
    }

    @Test func onlyOnErrorStillSeesTheError() {
        struct Failure: Error {}
        let failed = Counter()
        Signal<Int>.serial { observer in
            observer.sendNext(1)
            observer.sendError(Failure())
            return ActionDisposable {}
        }.subscribe(onError: { _ in failed.increment() })
        #expect(failed.count == 1)
    }
}
