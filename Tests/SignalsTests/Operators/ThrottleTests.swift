import Testing
@testable import Signals
import TestSupport

@Suite struct ThrottleTests {
    @Test func emitsTheLeadingValueThenIgnoresTheWindow() {
        let scheduler = TestScheduler()
        let output = marbles("-a-b-c---------d-|", scheduler) { $0.throttle(.seconds(5), scheduler: scheduler) }
        #expect(output == "-a-------------d-|")
    }

    @Test func latestEmitsTheWindowsLastValueAtItsEnd() {
        let scheduler = TestScheduler()
        let output = marbles("-a-b-c---------d-|", scheduler) {
            $0.throttle(.seconds(5), latest: true, scheduler: scheduler)
        }
        #expect(output == "-a----c--------d-|")
    }

    @Test func completionFlushesThePendingLatestValue() {
        let scheduler = TestScheduler()
        let output = marbles("-a-b|", scheduler) { $0.throttle(.seconds(5), latest: true, scheduler: scheduler) }
        #expect(output == "-a--(b|)")
        #expect(scheduler.pendingCount == 0)
    }

    @Test func anErrorPassesAtOnceAndDropsThePendingValue() {
        let scheduler = TestScheduler()
        let output = marbles("-a-b#", scheduler) { $0.throttle(.seconds(5), latest: true, scheduler: scheduler) }
        #expect(output == "-a--#")
    }

    @Test func disposingCancelsTheWindowTimer() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c-|")
        let output = record(scheduler, disposeAt: 2, horizon: 2,
                            source.signal.throttle(.seconds(5), latest: true, scheduler: scheduler))
        #expect(output == "-a")
        #expect(source.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
