import Glibc
import SystemPackage

/// Why a file watch could not start or had to stop. `description` is one
/// clear line that names the path and, where there is one, the fix.
public struct FileWatchError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The cause, for code that wants to react to it.
    public enum Reason: Sendable, Hashable {
        /// The path to watch does not exist.
        case noSuchPath(FilePath)
        /// The path exists but cannot be watched (permissions, not a file or directory).
        case cannotWatch(path: FilePath, errno: Int32)
        /// `fs.inotify.max_user_watches` ran out while watching `path`.
        case watchLimit(path: FilePath, limit: Int)
        /// A watched root was deleted or moved away (with `RootDeletion.fail`).
        case rootDeleted(FilePath)
        /// A glob in `WatchOptions` is malformed.
        case badGlob(pattern: String, problem: String)
        /// An ignore or filter file of `WatchOptions` cannot be read.
        case badRuleFile(path: FilePath, problem: String)
        /// inotify itself could not be set up (instance limit, no kernel support).
        case inotifyUnavailable(errno: Int32)
    }

    /// The cause.
    public var reason: Reason

    /// An error for `reason`.
    public init(_ reason: Reason) {
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .noSuchPath(let path):
            return "cannot watch \(Quoted.path(path)): no such file or directory"
        case .cannotWatch(let path, let code):
            return "cannot watch \(Quoted.path(path)): \(Errno(rawValue: code).description)"
        case .watchLimit(let path, let limit):
            let suggested = max(524_288, limit * 4)
            return "inotify watch limit reached (fs.inotify.max_user_watches = \(limit)) while watching \(Quoted.path(path)); "
                + "raise it with: sudo sysctl fs.inotify.max_user_watches=\(suggested)"
        case .rootDeleted(let path):
            return "watched path \(Quoted.path(path)) was deleted or moved away"
        case .badGlob(let pattern, let problem):
            return "bad glob \"\(pattern)\": \(problem)"
        case .badRuleFile(let path, let problem):
            return "cannot read \(Quoted.path(path)): \(problem)"
        case .inotifyUnavailable(let code):
            return "cannot start inotify: \(Errno(rawValue: code).description)"
                + (code == EMFILE ? " (raise fs.inotify.max_user_instances)" : "")
        }
    }
}
