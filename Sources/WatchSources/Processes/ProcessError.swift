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
        let name = ProcessError.quoted(command)
        switch reason {
        case .notFound:
            return "command not found: \(name)"
        case .notExecutable:
            return "cannot execute \(name): \(detail.isEmpty ? "not executable" : detail)"
        case .badWorkingDirectory(let directory):
            return "cannot run \(name) in \(ProcessError.quoted(directory)): \(detail)"
        case .emptyCommand:
            return "no command given"
        case .spawnFailed:
            return "cannot start \(name): \(detail)"
        }
    }

    /// Shows a name with spaces or control characters unambiguously.
    static func quoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "'" && $0.value != 0x7F }
        if plain { return text }
        var out = "'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "'": out += "\\'"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\x" + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "'"
    }
}
