@testable import Signals
import Testing
import WatchSources

@Suite struct TimerTests {
    @Test func intervalTicksOnVirtualTime() {
        let scheduler = TestScheduler()
        let ticks = Locked<[Duration]>([])
        let subscription = Timer.interval(.seconds(2), on: scheduler).subscribe(onNext: { time in
            ticks.withLock { $0.append(time) }
        })
        scheduler.advance(by: .seconds(7))
        #expect(ticks.withLock { $0 } == [.seconds(2), .seconds(4), .seconds(6)])
        subscription.dispose()
        scheduler.advance(by: .seconds(10))
        #expect(ticks.withLock { $0 }.count == 3)
    }

    @Test func afterFiresOnceThenCompletes() {
        let scheduler = TestScheduler()
        let events = Locked<[String]>([])
        Timer.after(.seconds(3), on: scheduler).subscribe { event in
            events.withLock { $0.append(event.isTerminal ? "|" : "t") }
        }
        scheduler.advance(by: .seconds(2))
        #expect(events.withLock { $0 }.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(events.withLock { $0 } == ["t", "|"])
    }
}
