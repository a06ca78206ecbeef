import Testing
@testable import Signals
import TestSupport

@Suite struct DebounceMaxWaitTests {
    @Test func aQuietPeriodEndsABurstAsPlainDebounceDoes() {
        let scheduler = TestScheduler()
        let output = marbles("-a-b-c--------d-------|", scheduler) {
            $0.debounce(.ticks(4), maxWait: .ticks(8), scheduler: scheduler)
        }
        #expect(output == "---------c--------d---|")
    }

    @Test func maxWaitCapsASteadyStream() {
        let scheduler = TestScheduler()
        let output = marbles("-a-b-c-----d-e-f-g-h-i-j-|", scheduler) {
            $0.debounce(.ticks(4), maxWait: .ticks(8), scheduler: scheduler)
        }
        #expect(output == "---------c---------h-----(j|)")
    }

    @Test func aMaxWaitShorterThanTheIntervalCountsAsTheInterval() {
        let scheduler = TestScheduler()
        let output = marbles("-a-b-c-d-|", scheduler) {
            $0.debounce(.ticks(4), maxWait: .ticks(1), scheduler: scheduler)
        }
        #expect(output == "-----c---(d|)")
    }

    @Test func intoCollectsEveryValueOfTheBurst() {
        let scheduler = TestScheduler()
        let output = marbles("-a-b-c-----d-e-f-g-h-i-j-|", scheduler, symbol: { "[\($0)]" }) {
            $0.debounce(.ticks(4), maxWait: .ticks(8), scheduler: scheduler, into: "") { $0 += $1 }
        }
        #expect(output == "---------[abc]---------[defgh]-----([ij]|)")
    }

    /// The source says it holds a value back until tick 9: the window that
    /// would close at tick 5 waits for it (then `interval` more), and the
    /// held value joins the batch; with nothing held it closes as before.
    @Test func aWindowWaitsForAValueTheSourceHoldsBackUpToTheCap() {
        let scheduler = TestScheduler()
        let heldUntil = Duration.ticks(9)
        let holding: @Sendable () -> Duration? = { scheduler.now < heldUntil ? heldUntil - scheduler.now : nil }
        let output = marbles("-a-------b-----c-|", scheduler, symbol: { "[\($0)]" }) {
            $0.debounce(.ticks(4), maxWait: .ticks(20), scheduler: scheduler, into: "", holding: holding) { $0 += $1 }
        }
        #expect(output == "-------------[ab]---([c]|)")
        let capped = marbles("-a-------b-|", scheduler, symbol: { "[\($0)]" }) {
            $0.debounce(.ticks(4), maxWait: .ticks(6), scheduler: scheduler, into: "", holding: { .ticks(100) }) { $0 += $1 }
        }
        #expect(capped == "-------[a]---([b]|)")
    }

    @Test func eachBatchStartsAgainFromTheInitialValue() {
        let scheduler = TestScheduler()
        let output = marbles("-a------b-|", scheduler, symbol: { "\($0)" }) {
            $0.debounce(.ticks(2), maxWait: .ticks(4), scheduler: scheduler, into: 0) { count, _ in count += 1 }
        }
        #expect(output == "---1------(1|)")
    }

    @Test func completionFlushesThePendingValue() {
        let scheduler = TestScheduler()
        let output = marbles("-a-b|", scheduler) { $0.debounce(.ticks(4), maxWait: .ticks(8), scheduler: scheduler) }
        #expect(output == "----(b|)")
        #expect(scheduler.pendingCount == 0)
    }

    @Test func anErrorPassesAtOnceAndDropsThePendingValue() {
        let scheduler = TestScheduler()
        let output = marbles("-a-#", scheduler) { $0.debounce(.ticks(4), maxWait: .ticks(8), scheduler: scheduler) }
        #expect(output == "---#")
        #expect(scheduler.pendingCount == 0)
    }

    @Test func intoSendsTheOpenBatchBeforeAnError() {
        let scheduler = TestScheduler()
        let output = marbles("-a-b#", scheduler, symbol: { "[\($0)]" }) {
            $0.debounce(.ticks(4), maxWait: .ticks(8), scheduler: scheduler, into: "") { $0 += $1 }
        }
        #expect(output == "----([ab]#)")
    }

    @Test func aWindowArmsOneTimerNotOnePerValue() {
        let scheduler = TestScheduler()
        let subject = PublishSubject<Int>()
        let subscription = subject.asSignal().debounce(.ticks(4), maxWait: .ticks(8), scheduler: scheduler).subscribe()
        for value in 0..<100 { subject.sendNext(value) }
        #expect(scheduler.pendingCount == 1)
        subscription.dispose()
        #expect(scheduler.pendingCount == 0)
    }

    @Test func disposingCancelsTheTimerAndDropsTheValue() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-|")
        let output = record(scheduler, disposeAt: 2, horizon: 2,
                            source.signal.debounce(.ticks(4), maxWait: .ticks(8), scheduler: scheduler))
        #expect(output == "")
        #expect(source.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
