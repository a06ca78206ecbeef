import Glibc
@testable import RecipeKit
import Testing
import TestSupport

/// `RunOptions.timeout`: the timer runs on virtual time, the command is real.
@Suite struct RunTimeoutTests {
    @Test func aRunThatTakesLongerIsStoppedThroughItsHandle() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let scheduler = TestScheduler()
        let subject = PublishSubject<ChangeBatch>()
        let results = Locked<[RunResult]>([])
        let options = RunOptions(stopTimeout: .seconds(5), timeout: .seconds(10), statusLines: false)
        let subscription = subject.asSignal()
            .run(["sh", "-c", "touch \"$0\"; exec sleep 300", dir.file("started")], options: options, scheduler: scheduler)
            .subscribe(onNext: { result in results.withLock { $0.append(result) } })
        defer { subscription.dispose() }
        subject.sendNext(ChangeBatch([]))
        #expect(eventually { access(dir.file("started"), F_OK) == 0 })
        scheduler.advance(by: .seconds(9))
        #expect(results.withLock { $0.isEmpty })
        scheduler.advance(by: .seconds(1))
        #expect(eventually { results.withLock { $0.count } == 1 })
        #expect(results.withLock { $0.first?.status } == .signaled(SIGTERM))
    }

    @Test func aRunThatEndsInTimeIsLeftAloneAndItsTimerGoes() {
        let scheduler = TestScheduler()
        let subject = PublishSubject<ChangeBatch>()
        let results = Locked<[RunResult]>([])
        let options = RunOptions(timeout: .seconds(10), statusLines: false)
        let subscription = subject.asSignal()
            .run(["sh", "-c", "exit 3"], options: options, scheduler: scheduler)
            .subscribe(onNext: { result in results.withLock { $0.append(result) } })
        defer { subscription.dispose() }
        subject.sendNext(ChangeBatch([]))
        #expect(eventually { results.withLock { $0.count } == 1 })
        #expect(results.withLock { $0.first?.status } == .exited(3))
        // The timer went with the run: nothing is pending on the scheduler.
        #expect(scheduler.pendingCount == 0)
    }
}
