/// How a child process ended: with an exit code, or killed by a signal.
public enum ExitStatus: Sendable, Hashable {
    /// A normal exit with this code.
    case exited(Int32)
    /// Killed by signal N.
    case signaled(Int32)

    /// True for `exited(0)` only.
    public var succeeded: Bool { self == .exited(0) }

    /// The code a shell would report: the exit code, or 128+N for signal N
    /// (the convention of `sh`, `entr -z` and rwatch's `--once`).
    public var shellCode: Int32 {
        switch self {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }
}

extension ExitStatus: CustomStringConvertible {
    public var description: String {
        switch self {
        case .exited(let code): "exited with code \(code)"
        case .signaled(let signal): "killed by signal \(signal)"
        }
    }
}
