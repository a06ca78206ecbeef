import Glibc
import RecipeKit

/// Saves of the recipe file, as a descriptor the supervisor's loop polls:
/// a `FileWatcher` on the file (through its directory, so editors that
/// replace the file by a rename keep being seen), batched so that one save
/// is one request.
final class ReloadRequests: Sendable {
    /// Poll this for `POLLIN`, then `drain()`.
    let readEnd: Int32
    private let writeEnd: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        if let pipe = try? GNUFunctions.makePipe() {
            fds = [pipe.read, pipe.write]
            _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
            _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    /// Watches `file` until the returned subscription is disposed. A watch
    /// that fails (the directory went away) is reported once; the running
    /// recipe keeps going.
    func watch(_ file: String) -> any Disposable {
        let options = WatchOptions(useVCSIgnore: false, useDefaultIgnore: false, onRootDeleted: .waitForReappearance)
        return FileWatcher.watch([file], options: options)
            .batched(.milliseconds(100))
            .subscribe(
                onNext: { [self] _ in
                    var byte: UInt8 = 1
                    _ = write(writeEnd, &byte, 1)
                },
                onError: { error in
                    Terminal.error("\(error); \(Quoted.path(file)) is no longer watched for changes")
                }
            )
    }

    /// Empties the pipe after a wake-up.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}
