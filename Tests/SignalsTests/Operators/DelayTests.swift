import Testing
@testable import Signals
import TestSupport

@Suite struct DelayTests {
    @Test func shiftsValuesAndCompletion() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-bc|", scheduler) { $0.delay(.seconds(2), scheduler: scheduler) } == "---a-bc|")
    }

    @Test func anErrorPassesAtOnceAndDropsDelayedValues() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-#", scheduler) { $0.delay(.seconds(5), scheduler: scheduler) } == "---#")
        #expect(scheduler.pendingCount == 0)
    }

    @Test func disposingCancelsTheTimer() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-|")
        let output = record(scheduler, disposeAt: 4, horizon: 4, source.signal.delay(.seconds(2), scheduler: scheduler))
        #expect(output == "---a")
        #expect(source.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
