#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Finds the file a command name runs, the way `execvp` would, so that a
/// missing or non-executable command gives an exact message before spawning.
enum ExecutableLookup {
    /// The path to spawn for `command` (bytes: a program's path need not
    /// be UTF-8 either).
    ///
    /// A name with a `/` is checked as is (relative to `workingDirectory`,
    /// where the child will run); a bare name is searched on `searchPath`
    /// (the child's `PATH`; `/usr/local/bin:/usr/bin:/bin` when unset).
    static func resolve(_ command: [UInt8], searchPath: String?, workingDirectory: [UInt8]?) throws(ProcessError) -> [UInt8] {
        let name = String(decoding: command, as: UTF8.self)
        guard !command.isEmpty else { throw ProcessError(command: name, reason: .notFound) }
        let slash = UInt8(ascii: "/")
        if command.contains(slash) {
            var candidate = command
            if command.first != slash, let workingDirectory {
                candidate = workingDirectory + [slash] + command
            }
            switch check(candidate) {
            case .ok: return command
            case .missing: throw ProcessError(command: name, reason: .notFound)
            case .refused(let detail): throw ProcessError(command: name, reason: .notExecutable, detail: detail)
            }
        }
        var refusal: String?
        let directories = (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false)
        for directory in directories {
            let candidate = Array((directory.isEmpty ? "." : String(directory)).utf8) + [slash] + command
            switch check(candidate) {
            case .ok: return candidate
            case .missing: continue
            case .refused(let detail): refusal = refusal ?? detail
            }
        }
        if let refusal { throw ProcessError(command: name, reason: .notExecutable, detail: refusal) }
        throw ProcessError(command: name, reason: .notFound)
    }

    private enum Verdict {
        case ok
        case missing
        case refused(String)
    }

    private static func check(_ bytes: [UInt8]) -> Verdict {
        let path = (bytes + [0]).map { CChar(bitPattern: $0) }
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .missing : .refused(Errno(rawValue: code).description)
        }
        if info.st_mode & S_IFMT == S_IFDIR { return .refused("is a directory") }
        guard access(path, X_OK) == 0 else { return .refused(Errno(rawValue: errno).description) }
        return .ok
    }
}
