import Glibc
import RecipeKit
import Synchronization
import SystemPackage

/// The files rwatch writes its own output to: standard output and error
/// when they are regular files, and the `--log-file`. A write to one of
/// them is rwatch's own (or its command's output, which the user sent
/// there), never a change to react to: `rwatch make > build.log 2>&1` or
/// `rwatch events > events.log` in the watched tree would otherwise feed
/// on itself for ever.
final class OwnOutput: Sendable {
    private static let logFiles = Mutex<[Int32]>([])

    /// Counts `fd` (the open log file) as rwatch's own output.
    static func add(_ fd: Int32) {
        logFiles.withLock { $0.append(fd) }
    }

    /// The real paths of the regular files behind standard output, standard
    /// error and the log files, as the kernel names them (symbolic links
    /// resolved), the form in which events under the current directory come.
    let paths: Set<FilePath>
    /// The paths whose events were dropped already (`-v` says so once each).
    private let told = Mutex<Set<FilePath>>([])

    init() {
        var paths = Set<FilePath>()
        for fd in [STDOUT_FILENO, STDERR_FILENO] + Self.logFiles.withLock({ $0 }) {
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
            guard length > 0, buffer[0] == UInt8(ascii: "/") else { continue }
            paths.insert(FilePath(bytes: Array(buffer[0..<length])))
        }
        self.paths = paths
    }

    /// Whether an event of `path` is a change (not rwatch's own output).
    /// The first event dropped for each file is named with `-v`.
    func isChange(_ path: FilePath) -> Bool {
        guard paths.contains(path) else { return true }
        if told.withLock({ $0.insert(path).inserted }) {
            Diagnostics.verbose("not a change: \(Quoted.path(path)) is where rwatch writes its own output")
        }
        return false
    }
}
