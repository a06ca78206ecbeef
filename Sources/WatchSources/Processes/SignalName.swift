import Glibc

/// Names of the POSIX signals, both ways: `TERM`, `SIGTERM`, `sigterm` and
/// `15` all mean SIGTERM.
public enum SignalName {
    static let table: [(String, Int32)] = [
        ("HUP", SIGHUP), ("INT", SIGINT), ("QUIT", SIGQUIT), ("ILL", SIGILL), ("TRAP", SIGTRAP),
        ("ABRT", SIGABRT), ("BUS", SIGBUS), ("FPE", SIGFPE), ("KILL", SIGKILL), ("USR1", SIGUSR1),
        ("SEGV", SIGSEGV), ("USR2", SIGUSR2), ("PIPE", SIGPIPE), ("ALRM", SIGALRM), ("TERM", SIGTERM),
        ("CHLD", SIGCHLD), ("CONT", SIGCONT), ("STOP", SIGSTOP), ("TSTP", SIGTSTP), ("TTIN", SIGTTIN),
        ("TTOU", SIGTTOU), ("URG", SIGURG), ("XCPU", SIGXCPU), ("XFSZ", SIGXFSZ), ("VTALRM", SIGVTALRM),
        ("PROF", SIGPROF), ("WINCH", SIGWINCH), ("IO", SIGIO), ("PWR", SIGPWR), ("SYS", SIGSYS),
    ]

    /// The signal number for `name`, or nil when it names no signal.
    public static func number(_ name: String) -> Int32? {
        if let number = Int32(name) { return (1...64).contains(number) ? number : nil }
        var upper = name.uppercased()
        if upper.hasPrefix("SIG") { upper.removeFirst(3) }
        return table.first { $0.0 == upper }?.1
    }

    /// `SIGTERM` for 15; `signal 40` for numbers without a name.
    public static func name(_ number: Int32) -> String {
        table.first { $0.1 == number }.map { "SIG\($0.0)" } ?? "signal \(number)"
    }
}
