import Glibc
import RecipeKit

/// Saves of the recipe file, as a descriptor `RecipeHost`'s loop polls:
/// a `FileWatcher` on the file (through its directory, so editors that
/// replace the file by a rename keep being seen), batched so that one save
/// is one request.
final class ReloadRequests: Sendable {
    /// Nil when no pipe could be made: then no reload is ever requested.
    private let wake = try? WakePipe()

    /// Poll this for `POLLIN`, then `drain()` (-1, which `poll` skips,
    /// without a pipe).
    var readEnd: Int32 { wake?.readEnd ?? -1 }

    /// Watches `file` until the returned subscription is disposed. A watch
    /// that fails (the directory went away) is reported once; the running
    /// recipe keeps going.
    func watch(_ file: String) -> any Disposable {
        let options = WatchOptions(useVCSIgnore: false, useDefaultIgnore: false, onRootDeleted: .waitForReappearance)
        return FileWatcher.watch([file], options: options)
            .batched(.milliseconds(100))
            .subscribe(
                onNext: { [self] _ in wake?.wake() },
                onError: { error in
                    Terminal.error("\(error); \(Quoted.path(file)) is no longer watched for changes")
                }
            )
    }

    /// Empties the pipe after a wake-up.
    func drain() {
        wake?.drain()
    }
}
