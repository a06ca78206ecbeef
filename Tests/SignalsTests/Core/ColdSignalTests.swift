import Testing
@testable import Signals

@Suite struct ColdSignalTests {
    /// A network-like request: one side effect per subscription.
    private func request(_ counter: Counter) -> Signal<Int> {
        Signal { observer in
            counter.increment()
            observer.sendNext(42)
            observer.sendCompleted()
            return ActionDisposable {}
        }
    }

    @Test func subscribeRunsTheProducerOncePerSubscription() {
        let counter = Counter()
        let signal = request(counter)
        signal.subscribe { _ in }
        signal.subscribe { _ in }
        #expect(counter.count == 2)
    }

    /// ReactiveCocoa's classic: three bindings plus a merge of them is six
    /// requests cold, one after replayLazily().
    @Test func threeDerivedSignalsAndTheirMergeMakeSixRequestsCold() {
        let counter = Counter()
        let network = request(counter)
        let a = network.map { $0 + 1 }, b = network.map { $0 + 2 }, c = network.map { $0 + 3 }
        for derived in [a, b, c, Signal.merge([a, b, c])] { derived.subscribe { _ in } }
        #expect(counter.count == 6)
    }

    @Test func replayLazilyMakesTheSameGraphOneRequest() {
        let counter = Counter()
        let network = request(counter).replayLazily()
        #expect(counter.count == 0, "lazy: nothing before the first subscriber")
        let a = network.map { $0 + 1 }, b = network.map { $0 + 2 }, c = network.map { $0 + 3 }
        let recorder = Recorder<Int>()
        for derived in [a, b, c] { derived.subscribe { _ in } }
        Signal.merge([a, b, c]).subscribe(recorder.handler)
        #expect(counter.count == 1)
        #expect(recorder.events == ["43", "44", "45", "|"])
    }

    @Test func constructorsSendWhatTheyPromise() {
        let just = Recorder<Int>(), empty = Recorder<Int>(), failing = Recorder<Int>(), never = Recorder<Int>()
        let from = Recorder<Int>()
        Signal.just(1).subscribe(just.handler)
        Signal<Int>.empty().subscribe(empty.handler)
        Signal<Int>.error(TestError()).subscribe(failing.handler)
        Signal<Int>.never().subscribe(never.handler)
        Signal.from([1, 2, 3]).subscribe(from.handler)
        #expect(just.events == ["1", "|"])
        #expect(empty.events == ["|"])
        #expect(failing.events == ["#"])
        #expect(never.events == [])
        #expect(from.events == ["1", "2", "3", "|"])
    }

    @Test func deferredCallsItsFactoryPerSubscription() {
        let counter = Counter()
        let signal = Signal.deferred { Signal.just(counter.increment()) }
        #expect(counter.count == 0)
        let first = Recorder<Int>(), second = Recorder<Int>()
        signal.subscribe(first.handler)
        signal.subscribe(second.handler)
        #expect(first.events == ["1", "|"])
        #expect(second.events == ["2", "|"])
    }

    @Test func anEndlessSynchronousSourceStopsWhenItsDownstreamStops() {
        let pulled = Counter()
        let naturals = (1...).lazy.map { value -> Int in
            pulled.increment()
            return value
        }
        let recorder = Recorder<Int>()
        // A downstream that completes after two values, from inside the
        // upstream's synchronous loop.
        let source = Signal.from(naturals)
        let firstTwo = Signal<Int>.serial { observer in
            source.start(for: observer) { event in
                observer.send(event)
                if event.value == 2 { observer.sendCompleted() }
            }
        }
        firstTwo.subscribe(recorder.handler)
        #expect(recorder.events == ["1", "2", "|"])
        #expect(pulled.count == 2)
    }

    @Test func completionDisposesWhatTheProducerReturned() {
        let disposed = Counter()
        Signal<Int> { observer in
            observer.sendCompleted()
            return ActionDisposable { disposed.increment() }
        }.subscribe { _ in }
        #expect(disposed.count == 1)
    }

    @Test func asyncCompletionDisposesWhatTheProducerReturned() {
        let disposed = Counter()
        let trigger = PublishSubject<Int>()
        let subscription = Signal<Int> { observer in
            let inner = trigger.subscribe(observer)
            return ActionDisposable {
                disposed.increment()
                inner.dispose()
            }
        }.subscribe { _ in }
        #expect(disposed.count == 0)
        trigger.sendCompleted()
        #expect(disposed.count == 1)
        #expect(subscription.isDisposed)
        subscription.dispose()
        #expect(disposed.count == 1)
    }
}

@Suite struct EarlyStopTests {
    @Test func takeStopsAnEndlessSynchronousSourceThroughAChain() {
        let recorder = Recorder<Int>()
        Signal.from(1...).map { $0 * 2 }.filter { $0 % 3 != 0 }.take(3).subscribe(recorder.handler)
        #expect(recorder.events == ["2", "4", "8", "|"])
    }

    @Test func takeWhileStopsAnEndlessSynchronousSource() {
        let recorder = Recorder<Int>()
        Signal.from(1...).scan(0, +).takeWhile { $0 < 10 }.subscribe(recorder.handler)
        #expect(recorder.events == ["1", "3", "6", "|"])
    }
}
