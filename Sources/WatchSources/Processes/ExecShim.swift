#if canImport(Glibc)
import Glibc
#endif

/// The exec shim (`CGlibcShims/exec_shim.c`): the running program, spawned
/// in place of a command, replaces itself with the command at once, on
/// the way doing what `posix_spawn` cannot do between fork and exec. Every
/// program that links WatchSources is one: rwatch, a compiled recipe, the
/// test runner.
enum ExecShim {
    /// The program to spawn: the running one, found by the kernel even if
    /// its file was replaced or removed since it started.
    static let path: [UInt8] = Array("/proc/self/exe".utf8)

    /// The variable that makes the spawned program exec `program`; with
    /// `listenPID`, `LISTEN_PID` is set to its pid first; with
    /// `takeTerminal`, its group becomes the terminal's foreground group
    /// first. It names this process as the parent, so a stray copy of it
    /// does nothing.
    static func variable(program: [UInt8], listenPID: Bool, takeTerminal: Bool = false) -> [UInt8] {
        let flags = (listenPID ? "L" : "") + (takeTerminal ? "T" : "")
        return Array("RWATCH_EXEC_SHIM=\(getpid()):\(flags.isEmpty ? "-" : flags):".utf8) + program
    }
}
