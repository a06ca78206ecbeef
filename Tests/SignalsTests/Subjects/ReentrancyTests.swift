import Testing
@testable import Signals

@Suite struct ReentrancyTests {
    /// An observer that sends into the subject it observes: the inner send
    /// is delivered after the current event reached every observer, so all
    /// observers see one order, and nothing deadlocks.
    @Test func aSendFromInsideAnObserverIsQueuedAndEveryObserverSeesOneOrder() {
        let subject = PublishSubject<Int>()
        let first = Recorder<Int>(), second = Recorder<Int>()
        subject.subscribe { event in
            first.handler(event)
            if event.value == 1 { subject.sendNext(2) }
        }
        subject.subscribe(second.handler)
        subject.sendNext(1)
        subject.sendNext(3)
        #expect(first.events == ["1", "2", "3"])
        #expect(second.events == ["1", "2", "3"])
    }

    @Test func anObserverCanDisposeItsOwnSubscriptionWhileHandlingAnEvent() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = SerialDisposable()
        subscription.disposable = subject.subscribe { event in
            recorder.handler(event)
            subscription.dispose()
        }
        subject.sendNext(1)
        subject.sendNext(2)
        #expect(recorder.events == ["1"])
    }

    @Test func aSendIntoAUserSignalsObserverFromItsOwnHandlerIsQueued() {
        let recorder = Recorder<Int>()
        let holder = Locked<Observer<Int>?>(nil)
        let signal = Signal<Int> { observer in
            holder.withLock { $0 = observer }
            observer.sendNext(1)
            return ActionDisposable {}
        }
        signal.subscribe { event in
            recorder.handler(event)
            if event.value == 1 {
                holder.withLock { $0 }?.sendNext(2)
                recorder.handler(.next(-1))  // marks where the inner send returned
            }
        }
        #expect(recorder.events == ["1", "-1", "2"])
    }

    @Test func subscribingFromInsideAnObserverStartsWithTheNextEvent() {
        let subject = PublishSubject<Int>()
        let late = Recorder<Int>()
        let subscribed = Locked(false)
        subject.subscribe { event in
            let first = subscribed.withLock { done in
                defer { done = true }
                return !done
            }
            if first { subject.subscribe(late.handler) }
        }
        subject.sendNext(1)
        subject.sendNext(2)
        #expect(late.events == ["2"])
    }
}
