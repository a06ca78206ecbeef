import Dispatch
import Testing
@testable import Signals

@Suite struct DisposableTests {
    @Test func actionDisposableRunsOnceHoweverOftenDisposed() {
        let runs = Counter()
        let disposable = ActionDisposable { runs.increment() }
        #expect(!disposable.isDisposed)
        disposable.dispose()
        disposable.dispose()
        #expect(runs.count == 1)
        #expect(disposable.isDisposed)
    }

    @Test func actionDisposableRunsOnceUnderConcurrentDisposes() {
        for _ in 0..<200 {
            let runs = Counter()
            let disposable = ActionDisposable { runs.increment() }
            DispatchQueue.concurrentPerform(iterations: 8) { _ in disposable.dispose() }
            #expect(runs.count == 1)
        }
    }

    @Test func actionDisposableLetsGoOfItsClosureOnDispose() {
        weak var weakCapture: Tracked?
        let disposable: ActionDisposable
        do {
            let captured = Tracked()
            weakCapture = captured
            disposable = ActionDisposable { _ = captured }
        }
        #expect(weakCapture != nil)
        disposable.dispose()
        #expect(weakCapture == nil)
    }

    @Test func serialDisposableDisposesThePreviousInnerOnReplace() {
        let serial = SerialDisposable()
        let first = ActionDisposable(), second = ActionDisposable()
        serial.disposable = first
        serial.disposable = second
        #expect(first.isDisposed)
        #expect(!second.isDisposed)
        serial.dispose()
        #expect(second.isDisposed)
    }

    @Test func aDisposedSerialDisposableDisposesANewInnerAtOnce() {
        let serial = SerialDisposable()
        serial.dispose()
        let late = ActionDisposable()
        serial.disposable = late
        #expect(late.isDisposed)
    }

    @Test func compositeDisposesEverythingOnce() {
        let runs = Counter()
        let composite = CompositeDisposable([ActionDisposable { runs.increment() }])
        composite.add { runs.increment() }
        composite.dispose()
        composite.dispose()
        #expect(runs.count == 2)
    }

    @Test func aDisposedCompositeDisposesWhatIsAddedLaterAtOnce() {
        let composite = CompositeDisposable()
        composite.dispose()
        let late = ActionDisposable()
        let key = composite.add(late)
        #expect(late.isDisposed)
        #expect(key == nil)
    }

    @Test func removingFromACompositeDoesNotDispose() {
        let composite = CompositeDisposable()
        let kept = ActionDisposable()
        let key = composite.add(kept)
        #expect(composite.count == 1)
        if let key { composite.remove(key) }
        composite.dispose()
        #expect(!kept.isDisposed)
        #expect(composite.count == 0)
    }

    @Test func disposeBagDisposesOnDeinit() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        do {
            let bag = DisposeBag()
            subject.subscribe(recorder.handler).disposed(by: bag)
            subject.sendNext(1)
        }
        subject.sendNext(2)
        #expect(recorder.events == ["1"])
    }

    @Test func droppingASubscriptionDoesNotCancelIt() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        do { _ = subject.subscribe(recorder.handler) }
        subject.sendNext(1)
        #expect(recorder.events == ["1"])
    }

    @Test func disposingAColdSubscriptionReleasesWhatItCaptured() {
        let trigger = PublishSubject<Int>()
        weak var weakCapture: Tracked?
        let subscription: any Disposable
        do {
            let captured = Tracked()
            weakCapture = captured
            subscription = trigger.asSignal().map { $0 + 1 }.filter { _ in true }
                .subscribe(onNext: { _ in _ = captured })
        }
        #expect(weakCapture != nil)
        subscription.dispose()
        #expect(weakCapture == nil)
    }

    @Test func disposingReleasesAnObserverAProducerStillHolds() {
        let keeper = Locked<Observer<Int>?>(nil)
        weak var weakCapture: Tracked?
        let subscription: any Disposable
        do {
            let captured = Tracked()
            weakCapture = captured
            subscription = Signal<Int> { observer in
                keeper.withLock { $0 = observer }  // a producer that never lets go
                return ActionDisposable {}
            }.subscribe(onNext: { _ in _ = captured })
        }
        #expect(weakCapture != nil)
        subscription.dispose()
        #expect(weakCapture == nil)
        keeper.withLock { $0 }?.sendNext(1)  // harmless after dispose
    }

    @Test func disposingTwiceAndSendingAfterCompletionAreHarmless() {
        let recorder = Recorder<Int>()
        let holder = Locked<Observer<Int>?>(nil)
        let subscription = Signal<Int> { observer in
            holder.withLock { $0 = observer }
            return ActionDisposable {}
        }.subscribe(recorder.handler)
        let observer = holder.withLock { $0 }
        observer?.sendCompleted()
        observer?.sendNext(1)
        observer?.sendError(TestError())
        subscription.dispose()
        subscription.dispose()
        #expect(recorder.events == ["|"])
        #expect(observer?.isStopped == true)
    }
}
