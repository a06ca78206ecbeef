import Glibc
@testable import RecipeKit
import Testing
import TestSupport

@Suite struct NotifyTests {
    /// A value the source sends the moment it starts (a log follower with
    /// a line ready) reaches the notifier as well as the pass-through.
    /// Before, the pass-through's subscription started the shared source
    /// and the notifier, subscribed next, missed it: the recipe printed
    /// the error and never notified.
    @Test func theNotifierSeesAValueSentAsTheSourceStarts() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let subject = PublishSubject<String>()
        let source = Signal<String> { observer in
            let subscription = subject.subscribe(observer)
            subject.sendNext("ERROR boom")
            return subscription
        }
        let passed = Locked<[String]>([])
        let subscription = source
            .notify(["sh", "-c", "echo notified >> \"$0/notes\"", dir.path])
            .subscribe(onNext: { line in passed.withLock { $0.append(line) } })
        defer { subscription.dispose() }
        #expect(passed.withLock { $0 } == ["ERROR boom"])
        #expect(eventually { dir.read("notes") == "notified\n" })
    }
}
