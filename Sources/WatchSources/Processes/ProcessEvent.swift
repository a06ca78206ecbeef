/// What a running child process reports through `ProcessSource.run`.
///
/// The grammar is `started (stdout | stderr)* exited`, then the signal
/// completes. Lines of one stream arrive in the order the child wrote them.
public enum ProcessEvent: Sendable, Hashable {
    /// The child started; its pid is also its process group id.
    case started(pid: Int32)
    /// One line of standard output, without `\n` or `\r\n`.
    case stdout(String)
    /// One line of standard error, without `\n` or `\r\n`.
    case stderr(String)
    /// The child ended (the leader's status), once every member of its
    /// process group is gone: always the last value before completion. A
    /// stop asked through `ProcessHandle.stop()` still ends with it.
    case exited(ExitStatus)
}
