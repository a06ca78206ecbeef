import Testing
@testable import Signals
import TestSupport

@Suite struct SchedulerTests {
    @Test func testSchedulerRunsActionsInOrderOfDueTimeThenOfScheduling() {
        let scheduler = TestScheduler()
        let order = Locked<[String]>([])
        scheduler.schedule(after: .seconds(2)) { order.withLock { $0.append("b") } }
        scheduler.schedule(after: .seconds(1)) { order.withLock { $0.append("a") } }
        scheduler.schedule(after: .seconds(2)) { order.withLock { $0.append("c") } }
        scheduler.advance(by: .seconds(1))
        #expect(order.withLock { $0 } == ["a"])
        #expect(scheduler.now == .seconds(1))
        scheduler.advance(by: .seconds(5))
        #expect(order.withLock { $0 } == ["a", "b", "c"])
        #expect(scheduler.now == .seconds(6))
    }

    @Test func testSchedulerRepeatsAndCancels() {
        let scheduler = TestScheduler()
        let ticks = Counter()
        let timer = scheduler.schedule(every: .seconds(1)) { ticks.increment() }
        scheduler.advance(by: .seconds(3))
        #expect(ticks.count == 3)
        timer.dispose()
        scheduler.advance(by: .seconds(3))
        #expect(ticks.count == 3)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func testSchedulerRunDrainsEverything() {
        let scheduler = TestScheduler()
        let ran = Counter()
        scheduler.schedule(after: .seconds(100)) {
            ran.increment()
            scheduler.schedule(after: .seconds(1)) { ran.increment() }
        }
        scheduler.run()
        #expect(ran.count == 2)
        #expect(scheduler.now == .seconds(101))
    }

    @Test func immediateSchedulerRunsAtOnce() {
        let ran = Counter()
        ImmediateScheduler().schedule { ran.increment() }
        #expect(ran.count == 1)
    }

    @Test func queueSchedulerRunsInOrderOnItsQueue() {
        let scheduler = QueueScheduler(label: "test")
        let order = Locked<[Int]>([])
        for value in 0..<100 { scheduler.schedule { order.withLock { $0.append(value) } } }
        #expect(eventually { order.withLock { $0.count } == 100 })
        #expect(order.withLock { $0 } == Array(0..<100))
    }

    @Test func queueSchedulerCancelsWhatWasNotRunYet() {
        let scheduler = QueueScheduler(label: "test")
        let ran = Counter()
        let pending = scheduler.schedule(after: .seconds(60)) { ran.increment() }
        pending.dispose()
        let timer = scheduler.schedule(every: .milliseconds(1)) { ran.increment() }
        #expect(eventually { ran.count >= 3 })
        timer.dispose()
        #expect(timer.isDisposed)
    }

    @Test func subscribeOnRunsTheSubscriptionOnTheScheduler() {
        let scheduler = TestScheduler()
        let subscribed = Counter()
        let recorder = Recorder<Int>()
        Signal<Int> { observer in
            subscribed.increment()
            observer.sendNext(1)
            return ActionDisposable {}
        }.subscribe(on: scheduler).subscribe(recorder.handler)
        #expect(subscribed.count == 0)
        scheduler.advance()
        #expect(subscribed.count == 1)
        #expect(recorder.events == ["1"])
    }

    @Test func disposingBeforeSubscribeOnRanCancelsTheSubscription() {
        let scheduler = TestScheduler()
        let subscribed = Counter()
        let subscription = Signal<Int> { _ in
            subscribed.increment()
            return ActionDisposable {}
        }.subscribe(on: scheduler).subscribe { _ in }
        subscription.dispose()
        scheduler.advance()
        #expect(subscribed.count == 0)
    }

    @Test func observeOnDeliversOnTheSchedulerInOrder() {
        let scheduler = TestScheduler()
        let recorder = Recorder<Int>()
        Signal.from([1, 2, 3]).observe(on: scheduler).subscribe(recorder.handler)
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        #expect(recorder.events == ["1", "2", "3", "|"])
    }

    @Test func observeOnDropsWhatIsStillQueuedAfterDispose() {
        let scheduler = TestScheduler()
        let recorder = Recorder<Int>()
        let subscription = Signal.from([1, 2]).observe(on: scheduler).subscribe(recorder.handler)
        subscription.dispose()
        scheduler.advance()
        #expect(recorder.events.isEmpty)
    }

    @Test func observeOnAQueueSchedulerDeliversOnItsQueue() {
        let scheduler = QueueScheduler(label: "observe")
        let recorder = Recorder<Int>()
        Signal.from(1...50).observe(on: scheduler).subscribe(recorder.handler)
        #expect(eventually { recorder.events.last == "|" })
        #expect(recorder.events == (1...50).map(String.init) + ["|"])
    }
}
