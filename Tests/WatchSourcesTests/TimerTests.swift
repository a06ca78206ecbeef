import Signals
import Testing
import TestSupport
import WatchSources

@Suite struct TimerTests {
    /// A tick rendered as the scheduler time it carries, in ticks.
    private let time: @Sendable (Duration) -> String = { "\($0.components.seconds)" }

    @Test func intervalTicksOnVirtualTime() {
        let scheduler = TestScheduler()
        let output = record(scheduler, disposeAt: 7, Timer.interval(.ticks(2), on: scheduler), symbol: time)
        #expect(output == "--2-4-6")
        #expect(scheduler.pendingCount == 0)
    }

    @Test func afterFiresOnceThenCompletes() {
        let scheduler = TestScheduler()
        let output = record(scheduler, Timer.after(.ticks(3), on: scheduler), symbol: time)
        #expect(output == "---(3|)")
    }
}
