import Glibc
import WatchSources

/// Ends a command that prints for ever (`rwatch tail`, `rwatch events`)
/// once its standard output is a pipe or socket nobody reads any more.
///
/// A write to such a pipe raises SIGPIPE, but a follower that has nothing
/// new to print never writes: `rwatch tail app.log | head -n 5` would stay
/// after `head` is done. A thread waits in `poll` for the pipe to report
/// its reader gone, then ends the process with SIGPIPE, as the next write
/// would have (GNU `tail -f` does the same).
enum ClosedOutput {
    /// Starts watching standard output, if it is a pipe or a socket.
    static func endProcessWhenUnread() {
        var info = stat()
        guard fstat(STDOUT_FILENO, &info) == 0 else { return }
        let type = info.st_mode & S_IFMT
        guard type == S_IFIFO || type == S_IFSOCK else { return }
        DetachedThread.start { waitForReaderToLeave() }
    }

    private static func waitForReaderToLeave() {
        // No events asked for: a pipe reports POLLERR, a socket POLLHUP,
        // when the other end has closed.
        var output = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
        while true {
            let ready = poll(&output, 1, -1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0, output.revents & Int16(POLLERR | POLLHUP) != 0 else { return }
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
            return
        }
    }
}
