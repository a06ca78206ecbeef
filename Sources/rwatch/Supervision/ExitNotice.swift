import Glibc
import RecipeKit
import SystemPackage

/// A descriptor that becomes readable when a child process has exited: a
/// thread blocks in `waitid(…, WNOWAIT)` for it and leaves the child
/// unreaped (the supervisor reaps it, and learns its status, next). No
/// SIGCHLD is needed, so none can be lost to another thread.
final class ExitNotice: Sendable {
    private let exited: WakePipe
    /// Poll this for `POLLIN`.
    var readEnd: Int32 { exited.readEnd }

    /// Starts waiting for `pid`, a child of this process.
    init(_ pid: pid_t) throws {
        do throws(GNUFunctions.PipeFailure) {
            exited = try WakePipe()
        } catch {
            throw RWatchError("cannot make a pipe: \(Errno(rawValue: error.errno).description)")
        }
        // The thread keeps the notice (and so its descriptors) alive until
        // it has written.
        let started = DetachedThread.start { [self] in
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
            exited.wake()
        }
        guard started else { throw RWatchError("cannot start a thread") }
    }
}
