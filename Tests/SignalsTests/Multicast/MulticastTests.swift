import Testing
@testable import Signals

@Suite struct MulticastTests {
    /// A cold source that counts its subscriptions and sends what its
    /// subject sends.
    private final class Source: Sendable {
        let subscriptions = Counter()
        let disposals = Counter()
        let input = PublishSubject<Int>()

        var signal: Signal<Int> {
            Signal { [self] observer in
                subscriptions.increment()
                let inner = input.subscribe(observer)
                return ActionDisposable { [self] in
                    disposals.increment()
                    inner.dispose()
                }
            }
        }
    }

    @Test func aConnectionRunsTheSourceOnceHoweverManySubscribe() {
        let source = Source()
        let connection = source.signal.publish()
        let a = Recorder<Int>(), b = Recorder<Int>(), c = Recorder<Int>()
        for recorder in [a, b, c] { connection.signal.subscribe(recorder.handler) }
        #expect(source.subscriptions.count == 0, "nothing before connect()")
        connection.connect()
        source.input.sendNext(1)
        #expect(source.subscriptions.count == 1)
        #expect(a.events == ["1"] && b.events == ["1"] && c.events == ["1"])
    }

    @Test func aLateSubscriberToAPublishedSignalMissesEarlierValues() {
        let source = Source()
        let connection = source.signal.publish()
        connection.connect()
        source.input.sendNext(1)
        let late = Recorder<Int>()
        connection.signal.subscribe(late.handler)
        source.input.sendNext(2)
        #expect(late.events == ["2"])
    }

    @Test func connectingTwiceSubscribesOnce() {
        let source = Source()
        let connection = source.signal.publish()
        let first = connection.connect()
        let second = connection.connect()
        #expect(source.subscriptions.count == 1)
        second.dispose()
        first.dispose()
        #expect(source.disposals.count == 1)
    }

    @Test func disposingTheConnectionDisconnectsAndALaterConnectSubscribesAgain() {
        let source = Source()
        let connection = source.signal.publish()
        let recorder = Recorder<Int>()
        connection.signal.subscribe(recorder.handler)
        connection.connect().dispose()
        #expect(source.disposals.count == 1)
        source.input.sendNext(1)
        connection.connect()
        source.input.sendNext(2)
        #expect(source.subscriptions.count == 2)
        #expect(recorder.events == ["2"])
    }

    @Test func autoconnectConnectsOnTheFirstSubscriberAndDisconnectsAfterTheLast() {
        let source = Source()
        let shared = source.signal.publish().autoconnect()
        #expect(source.subscriptions.count == 0)
        let a = shared.subscribe { _ in }
        let b = shared.subscribe { _ in }
        #expect(source.subscriptions.count == 1)
        a.dispose()
        #expect(source.disposals.count == 0)
        b.dispose()
        #expect(source.disposals.count == 1)
        let c = shared.subscribe { _ in }
        #expect(source.subscriptions.count == 2, "the next subscriber connects anew")
        c.dispose()
        #expect(source.disposals.count == 2)
    }

    @Test func shareRunsTheSourceOnceForConcurrentSubscribersAndAgainAfterTheEnd() {
        let counter = Counter()
        let subject = PublishSubject<Int>()
        let shared = Signal<Int> { observer in
            counter.increment()
            return subject.subscribe(observer)
        }.share()
        let a = Recorder<Int>(), b = Recorder<Int>()
        shared.subscribe(a.handler)
        shared.subscribe(b.handler)
        subject.sendNext(1)
        #expect(counter.count == 1)
        #expect(a.events == ["1"] && b.events == ["1"])

        let justShared = Signal.deferred { Signal.just(counter.increment()) }.share()
        let first = Recorder<Int>(), second = Recorder<Int>()
        justShared.subscribe(first.handler)
        justShared.subscribe(second.handler)
        #expect(first.events == ["2", "|"])
        #expect(second.events == ["3", "|"], "a completed share starts anew")
    }

    @Test func replayConnectsAtOnceAndReplaysEverything() {
        let counter = Counter()
        let replayed = Signal<Int> { observer in
            counter.increment()
            observer.sendNext(1)
            observer.sendNext(2)
            return ActionDisposable {}
        }.replay()
        #expect(counter.count == 1)
        let recorder = Recorder<Int>()
        replayed.subscribe(recorder.handler)
        replayed.subscribe { _ in }
        #expect(recorder.events == ["1", "2"])
        #expect(counter.count == 1)
    }

    @Test func replayLastReplaysOnlyTheLatestValue() {
        let subject = PublishSubject<Int>()
        let replayed = subject.asSignal().replayLast()
        subject.sendNext(1)
        subject.sendNext(2)
        let recorder = Recorder<Int>()
        replayed.subscribe(recorder.handler)
        #expect(recorder.events == ["2"])
    }

    @Test func multicastThroughAChosenSubject() {
        let connection = Signal.from([1, 2, 3]).multicast(ReplaySubject(capacity: 1))
        connection.connect()
        let recorder = Recorder<Int>()
        connection.signal.subscribe(recorder.handler)
        #expect(recorder.events == ["3", "|"])
    }

    @Test func startLazilyRunsItsBlockOnceOnTheFirstSubscriptionAndReplays() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let signal = Signal<Int>.startLazily(on: scheduler) { observer in
            runs.increment()
            observer.sendNext(1)
            observer.sendCompleted()
        }
        scheduler.advance()
        #expect(runs.count == 0)
        let first = Recorder<Int>(), second = Recorder<Int>()
        signal.subscribe(first.handler)
        signal.subscribe(second.handler)
        #expect(runs.count == 0, "the block runs on the scheduler")
        scheduler.advance()
        #expect(runs.count == 1)
        #expect(first.events == ["1", "|"] && second.events == ["1", "|"])
    }

    @Test func startEagerlyRunsItsBlockRightAway() {
        let scheduler = TestScheduler()
        let runs = Counter()
        let signal = Signal<Int>.startEagerly(on: scheduler) { observer in
            runs.increment()
            observer.sendNext(5)
        }
        scheduler.advance()
        #expect(runs.count == 1)
        let recorder = Recorder<Int>()
        signal.subscribe(recorder.handler)
        scheduler.advance()
        #expect(recorder.events == ["5"])
        #expect(runs.count == 1)
    }
}

@Suite struct ShareLifetimeTests {
    /// A shared signal built as a temporary (as recipe pipelines are): the
    /// last subscriber leaving must still dispose the source.
    @Test func theLastSubscriberLeavingATemporarySharedSignalDisposesTheSource() {
        let disposed = Counter()
        let subscription: any Disposable
        do {
            let source = Signal<Int> { _ in ActionDisposable { disposed.increment() } }
            subscription = source.share().map { $0 }.subscribe { _ in }
        }
        #expect(disposed.count == 0)
        subscription.dispose()
        #expect(disposed.count == 1)
    }
}
