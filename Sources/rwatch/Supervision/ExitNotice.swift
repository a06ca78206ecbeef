import Glibc
import RecipeKit

/// A descriptor that becomes readable when a child process has exited: a
/// thread blocks in `waitid(…, WNOWAIT)` for it and leaves the child
/// unreaped (the supervisor reaps it, and learns its status, next). No
/// SIGCHLD is needed, so none can be lost to another thread.
final class ExitNotice: Sendable {
    /// Poll this for `POLLIN`.
    let readEnd: Int32
    private let writeEnd: Int32

    /// Starts waiting for `pid`, a child of this process.
    init(_ pid: pid_t) throws {
        let pipe: (read: Int32, write: Int32)
        do {
            pipe = try GNUFunctions.makePipe()
        } catch {
            throw RWatchError("cannot make a pipe: \(String(cString: strerror(error.errno)))")
        }
        readEnd = pipe.read
        writeEnd = pipe.write
        // The thread keeps the notice (and so its descriptors) alive until
        // it has written.
        let started = DetachedThread.start { [self] in
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
        guard started else {
            close(readEnd)
            close(writeEnd)
            throw RWatchError("cannot start a thread")
        }
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}
