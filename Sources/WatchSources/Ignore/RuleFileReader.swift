import Glibc
import SystemPackage

/// Reads ignore files and git's configuration without ever blocking on,
/// or reading, anything but a small regular file: a `.gitignore` that is a
/// FIFO, a socket, a device or a directory, or one larger than 1 MiB, is
/// skipped (the caller warns once). The file is looked at before it is
/// opened, opened non-blocking, and looked at again through the open fd.
enum RuleFileReader {
    /// The largest file read.
    static let limit = 1 << 20

    enum Outcome: Equatable {
        case contents([UInt8])
        /// Not there (a missing rule file is no rule file).
        case missing
        /// There, but not read; why, for a warning.
        case skipped(String)
    }

    /// Reads `path`. Without `followSymlinks`, a symbolic link is skipped
    /// (git does not follow an in-tree `.gitignore` that is one).
    static func read(_ path: FilePath, followSymlinks: Bool = true) -> Outcome {
        var info = stat()
        let looked = path.withPlatformString { followSymlinks ? stat($0, &info) : lstat($0, &info) }
        guard looked == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? .missing : .skipped(Errno(rawValue: errno).description)
        }
        if let problem = problem(info) { return .skipped(problem) }
        var flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY
        if !followSymlinks { flags |= O_NOFOLLOW }
        let fd = path.withPlatformString { open($0, flags) }
        guard fd >= 0 else {
            return errno == ENOENT ? .missing : .skipped(Errno(rawValue: errno).description)
        }
        defer { close(fd) }
        // It may have been replaced between the two looks.
        guard fstat(fd, &info) == 0 else { return .skipped(Errno(rawValue: errno).description) }
        if let problem = problem(info) { return .skipped(problem) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { return .skipped(Errno(rawValue: errno).description) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        if bytes.count > limit { return .skipped("it is larger than 1 MiB") }
        return .contents(bytes)
    }

    /// Why a file with `info` is not read, or nil when it is a small regular file.
    private static func problem(_ info: stat) -> String? {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return info.st_size > limit ? "it is larger than 1 MiB" : nil
        case S_IFDIR: return "it is a directory"
        case S_IFIFO: return "it is a FIFO"
        case S_IFSOCK: return "it is a socket"
        case S_IFCHR, S_IFBLK: return "it is a device"
        case S_IFLNK: return "it is a symbolic link"
        default: return "it is not a regular file"
        }
    }
}
