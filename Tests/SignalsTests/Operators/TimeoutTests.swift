import Testing
@testable import Signals
import TestSupport

@Suite struct TimeoutTests {
    @Test func failsWhenNoValueComesInTime() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a--b------c-|")
        let output = record(scheduler, source.signal.timeout(.seconds(4), scheduler: scheduler))
        #expect(output == "-a--b---#")
        #expect(source.active == 0)
    }

    @Test func failsWithATimeoutError() {
        let scheduler = TestScheduler()
        let failure = Locked<(any Error)?>(nil)
        Signal<Int>.never().timeout(.seconds(3), scheduler: scheduler).subscribe(onError: { error in
            failure.withLock { $0 = error }
        })
        scheduler.advance(by: .seconds(3))
        #expect(failure.withLock { $0 as? TimeoutError } == TimeoutError(interval: .seconds(3)))
    }

    @Test func completionCancelsTheTimer() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-|", scheduler) { $0.timeout(.seconds(4), scheduler: scheduler) } == "-a-|")
        #expect(scheduler.pendingCount == 0)
    }

    @Test func theSourcesErrorPasses() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-#", scheduler) { $0.timeout(.seconds(4), scheduler: scheduler) } == "-a-#")
        #expect(scheduler.pendingCount == 0)
    }

    @Test func disposingCancelsTheTimer() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-|")
        let output = record(scheduler, disposeAt: 2, horizon: 2, source.signal.timeout(.seconds(4), scheduler: scheduler))
        #expect(output == "-a")
        #expect(source.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
