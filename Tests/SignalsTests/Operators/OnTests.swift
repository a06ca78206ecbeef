import Testing
@testable import Signals
import TestSupport

@Suite struct OnTests {
    @Test func runsSideEffectsAndForwards() {
        let scheduler = TestScheduler()
        let seen = Locked<[String]>([])
        let output = marbles("-a-b-|", scheduler) {
            $0.on(next: { value in seen.withLock { $0.append(value) } },
                  completed: { seen.withLock { $0.append("|") } })
        }
        #expect(output == "-a-b-|")
        #expect(seen.withLock { $0 } == ["a", "b", "|"])
    }

    @Test func seesTheError() {
        let scheduler = TestScheduler()
        let errors = Locked(0)
        let output = marbles("-a-#", scheduler) { $0.on(error: { _ in errors.withLock { $0 += 1 } }) }
        #expect(output == "-a-#")
        #expect(errors.withLock { $0 } == 1)
    }

    @Test func runsDisposedWhenDisposed() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c-|")
        let disposed = Locked(0)
        let output = record(scheduler, disposeAt: 2, horizon: 2,
                            source.signal.on(disposed: { disposed.withLock { $0 += 1 } }))
        #expect(output == "-a")
        #expect(source.active == 0)
        #expect(disposed.withLock { $0 } == 1)
    }
}
