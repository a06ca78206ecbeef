/// Why a command could not start. `description` is one line naming the command.
public struct ProcessError: Error, CustomStringConvertible, Sendable, Hashable {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// No such file, or not found on `PATH`.
        case notFound
        /// Found, but not executable (permissions, a directory, a bad binary).
        case notExecutable
        /// The working directory does not exist or cannot be entered.
        case badWorkingDirectory(String)
        /// The command list was empty.
        case emptyCommand
        /// The system refused to start it (errno, e.g. out of processes).
        case spawnFailed(Int32)
    }

    /// The command as the user named it (`argv[0]`, or the shell).
    public var command: String
    /// What went wrong.
    public var reason: Reason
    /// The OS's explanation, when there is one ("Permission denied").
    public var detail: String

    /// An error about `command`.
    public init(command: String, reason: Reason, detail: String = "") {
        self.command = command
        self.reason = reason
        self.detail = detail
    }

    public var description: String {
        let name = Quoted.path(command)
        switch reason {
        case .notFound:
            return "command not found: \(name)"
        case .notExecutable:
            return "cannot execute \(name): \(detail.isEmpty ? "not executable" : detail)"
        case .badWorkingDirectory(let directory):
            return "cannot run \(name) in \(Quoted.path(directory)): \(detail)"
        case .emptyCommand:
            return "no command given"
        case .spawnFailed:
            return "cannot start \(name): \(detail)"
        }
    }
}
