import Glibc
import RecipeKit
import SystemPackage

/// The file-system calls rwatch's CLI adds to the watcher's, with Swift
/// types.
extension FileSystem {
    static func exists(_ path: String) -> Bool { exists(FilePath(path)) }

    static func isDirectory(_ path: String) -> Bool { isDirectory(FilePath(path)) }

    /// True for a regular file (after symlinks): not a FIFO, socket,
    /// device or directory, which rwatch must never open and block on.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The working directory, absolute.
    static func currentDirectory() -> String {
        guard let cwd = getcwd(nil, 0) else { return "." }
        defer { free(cwd) }
        return String(cString: cwd)
    }

    /// `exists(_:)` for a path given as bytes.
    static func exists(_ path: FilePath) -> Bool {
        var info = stat()
        return path.withPlatformString { stat($0, &info) } == 0
    }

    /// Whether following `path`'s symbolic links never ends (ELOOP).
    static func isLinkLoop(_ path: FilePath) -> Bool {
        var info = stat()
        return path.withPlatformString { stat($0, &info) } != 0 && errno == ELOOP
    }

    /// `isDirectory(_:)` for a path given as bytes.
    static func isDirectory(_ path: FilePath) -> Bool {
        var info = stat()
        return path.withPlatformString { stat($0, &info) } == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The text of the regular file at `path` (a recipe, an env file,
    /// a `/proc` entry), read with `readFile`: a FIFO, socket, device or
    /// directory under that name is refused at once, never blocked on.
    static func read(_ path: String) throws -> String {
        let read = readFile(FilePath(path), limit: 1 << 26)
        switch read {
        case .contents(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .notRegular: throw RWatchError("cannot read \(Quoted.path(path)): \(read.reason), not a regular file")
        case .missing, .tooLarge, .failed: throw RWatchError("cannot read \(Quoted.path(path)): \(read.reason)")
        }
    }

    static func write(_ text: String, to path: String, mode: mode_t = 0o600) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw RWatchError("cannot write \(Quoted.path(path)): \(Errno(rawValue: errno).description)") }
        defer { close(fd) }
        try write(text, fd: fd, path: path)
    }

    private static func write(_ text: String, fd: Int32, path: String) throws {
        do {
            _ = try FileDescriptor(rawValue: fd).writeAll(text.utf8)
        } catch {
            throw RWatchError("cannot write \(Quoted.path(path)): \(error)")
        }
    }

    /// Creates `path` holding `text`; refuses (throws) when anything exists
    /// there already, even a dangling symlink.
    static func create(_ text: String, at path: String, mode: mode_t = 0o644) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        guard fd >= 0 else {
            if errno == EEXIST {
                throw RWatchError("\(Quoted.path(path)) already exists; edit it, or remove it to start over")
            }
            throw RWatchError("cannot write \(Quoted.path(path)): \(Errno(rawValue: errno).description)")
        }
        defer { close(fd) }
        try write(text, fd: fd, path: path)
    }

    /// `absolute(_:)` for a path given as text.
    static func absolute(_ path: String) -> String {
        absolute(FilePath(path)).string
    }

    /// The real path of the running executable (`/proc/self/exe`).
    static func executable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Removes a directory tree (for the compiler's scratch directories).
    /// A symlink is removed, never followed.
    static func removeTree(_ path: String) {
        removeTree(FilePath(path))
    }

    private static func removeTree(_ path: FilePath) {
        for entry in entries(path) ?? [] {
            let child = path.appending(entry.name)
            if entry.isDirectory { removeTree(child) } else { _ = child.withPlatformString { unlink($0) } }
        }
        _ = path.withPlatformString { rmdir($0) }
    }
}
