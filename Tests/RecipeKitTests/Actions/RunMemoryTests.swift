@testable import RecipeKit
import Testing
import TestSupport

/// A long watch keeps nothing of the runs that ended: each run's trigger,
/// environment, handle and subscription are freed once it has ended, while
/// the action goes on.
@Suite struct RunMemoryTests {
    /// A trigger that counts its own release.
    private final class Token: RunTrigger {
        let freed: Locked<Int>
        init(_ freed: Locked<Int>) { self.freed = freed }
        deinit { freed.withLock { $0 += 1 } }
        var changes: ChangeBatch? { nil }
    }

    @Test(arguments: [OnBusy.queue, .restart])
    func aRunThatEndedKeepsNothingOfItsTrigger(_ policy: OnBusy) {
        let freed = Locked(0)
        let finished = Locked(0)
        let subject = PublishSubject<Token>()
        let subscription = subject.asSignal().run(["true"], onBusy: policy, options: RunOptions(statusLines: false))
            .subscribe(onNext: { _ in finished.withLock { $0 += 1 } })
        defer { subscription.dispose() }
        for sent in 1...3 {
            subject.sendNext(Token(freed))
            #expect(eventually { finished.withLock { $0 } == sent })
        }
        // Still subscribed: only what the ended runs held may be gone.
        #expect(eventually { freed.withLock { $0 } == 3 })
    }
}
