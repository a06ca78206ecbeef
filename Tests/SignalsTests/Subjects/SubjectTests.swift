import Testing
@testable import Signals

@Suite struct SubjectTests {
    @Test func publishSubjectDeliversOnlyWhatComesAfterSubscribing() {
        let subject = PublishSubject<Int>()
        subject.sendNext(1)
        let recorder = Recorder<Int>()
        subject.subscribe(recorder.handler)
        subject.sendNext(2)
        subject.sendCompleted()
        #expect(recorder.events == ["2", "|"])
    }

    @Test func aSubscriberAfterTheEndGetsTheTerminalEventAtOnce() {
        let subject = PublishSubject<Int>()
        subject.sendError(TestError())
        let recorder = Recorder<Int>()
        subject.subscribe(recorder.handler)
        #expect(recorder.events == ["#"])
    }

    @Test func replaySubjectReplaysTheLastTwoValuesThenTheTerminalEvent() {
        let subject = ReplaySubject<Int>(capacity: 2)
        for value in 1...5 { subject.sendNext(value) }
        subject.sendCompleted()
        let late = Recorder<Int>()
        subject.subscribe(late.handler)
        #expect(late.events == ["4", "5", "|"])
    }

    @Test func replaySubjectKeepsDeliveringLiveValuesAfterTheReplay() {
        let subject = ReplaySubject<String>(capacity: 1)
        subject.sendNext("a")
        subject.sendNext("b")
        let recorder = Recorder<String>()
        subject.subscribe(recorder.handler)
        subject.sendNext("c")
        #expect(recorder.events == ["b", "c"])
    }

    @Test func behaviorSubjectGivesTheCurrentValueOnSubscribe() {
        let subject = BehaviorSubject(7)
        let first = Recorder<Int>()
        subject.subscribe(first.handler)
        subject.sendNext(8)
        let second = Recorder<Int>()
        subject.subscribe(second.handler)
        #expect(first.events == ["7", "8"])
        #expect(second.events == ["8"])
        #expect(subject.value == 8)
    }

    @Test func nothingIsDeliveredAfterATerminalEvent() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        subject.subscribe(recorder.handler)
        subject.sendNext(1)
        subject.sendCompleted()
        subject.sendNext(2)
        subject.sendError(TestError())
        subject.sendCompleted()
        #expect(recorder.events == ["1", "|"])
    }

    @Test func disposingASubscriptionStopsDeliveryAndReleasesTheObserver() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        weak var weakCapture: Tracked?
        let subscription: any Disposable
        do {
            let captured = Tracked()
            weakCapture = captured
            subscription = subject.subscribe { event in
                _ = captured
                recorder.handler(event)
            }
        }
        subject.sendNext(1)
        #expect(weakCapture != nil)
        subscription.dispose()
        subject.sendNext(2)
        #expect(recorder.events == ["1"])
        #expect(weakCapture == nil)
    }

    @Test func asSignalHandsOutTheReadSide() {
        let subject = PublishSubject<Int>()
        let readOnly: Signal<Int> = subject.asSignal().map { $0 * 10 }
        let recorder = Recorder<Int>()
        readOnly.subscribe(recorder.handler)
        subject.sendNext(4)
        #expect(recorder.events == ["40"])
    }

    @Test func aSignalCanBeSubscribedIntoASubject() {
        let subject = ReplaySubject<Int>()
        Signal.from([1, 2]).subscribe(subject)
        let recorder = Recorder<Int>()
        subject.subscribe(recorder.handler)
        #expect(recorder.events == ["1", "2", "|"])
    }
}

/// An object whose lifetime a test watches through a weak reference.
final class Tracked: Sendable {}
