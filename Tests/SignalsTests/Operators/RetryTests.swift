import Testing
@testable import Signals
import TestSupport

@Suite struct RetryTests {
    @Test func resubscribesUpToCountMoreTimes() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-#")
        #expect(record(scheduler, source.signal.retry(2)) == "-a--a--a-#")
        #expect(source.subscriptions == 3)
    }

    @Test func succeedsWhenAnAttemptCompletes() {
        let attempts = Locked(0)
        let flaky = Signal<Int> { observer in
            let attempt = attempts.withLock { count in
                count += 1
                return count
            }
            if attempt < 3 { observer.sendError(MarbleError()) } else {
                observer.sendNext(attempt)
                observer.sendCompleted()
            }
            return ActionDisposable()
        }
        let (log, _) = flaky.retry(5).log()
        #expect(log.descriptions == ["next(3)", "completed"])
        #expect(attempts.withLock { $0 } == 3)
    }

    @Test func aSynchronousFailureIsRetriedInALoop() {
        let attempts = Locked(0)
        let failing = Signal<Int>.deferred {
            attempts.withLock { $0 += 1 }
            return .error(MarbleError())
        }
        let (log, _) = failing.retry(50_000).log()
        #expect(log.descriptions == ["error(#)"])
        #expect(attempts.withLock { $0 } == 50_001)
    }

    @Test func disposingDisposesTheCurrentAttempt() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-#")
        let output = record(scheduler, disposeAt: 4, horizon: 4, source.signal.retry(3))
        #expect(output == "-a--a")
        #expect(source.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
