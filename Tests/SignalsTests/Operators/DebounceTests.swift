import Testing
@testable import Signals
import TestSupport

@Suite struct DebounceTests {
    @Test func emitsTheLastValueAfterAQuietPeriod() {
        let scheduler = TestScheduler()
        let output = marbles("-a-b-c--------d-------|", scheduler) { $0.debounce(.seconds(4), scheduler: scheduler) }
        #expect(output == "---------c--------d---|")
    }

    @Test func completionFlushesThePendingValue() {
        let scheduler = TestScheduler()
        let output = marbles("-a-b|", scheduler) { $0.debounce(.seconds(4), scheduler: scheduler) }
        #expect(output == "----(b|)")
        #expect(scheduler.pendingCount == 0)
    }

    @Test func anErrorPassesAtOnceAndDropsThePendingValue() {
        let scheduler = TestScheduler()
        let output = marbles("-a-#", scheduler) { $0.debounce(.seconds(4), scheduler: scheduler) }
        #expect(output == "---#")
    }

    @Test func disposingCancelsTheTimer() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-|")
        let output = record(scheduler, disposeAt: 2, horizon: 2, source.signal.debounce(.seconds(4), scheduler: scheduler))
        #expect(output == "")
        #expect(source.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
