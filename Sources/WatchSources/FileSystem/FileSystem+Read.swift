import Glibc
import SystemPackage

extension FileSystem {
    /// What `readFile(_:limit:followSymlinks:)` found.
    package enum FileRead: Equatable {
        /// The whole file.
        case contents([UInt8])
        /// Nothing there (ENOENT, ENOTDIR).
        case missing
        /// There, but not read: `kind` names what it is instead of a
        /// regular file ("a FIFO", "a directory", …).
        case notRegular(kind: String)
        /// A regular file larger than the limit.
        case tooLarge(limit: Int)
        /// The system refused (EACCES, ELOOP, EIO, …).
        case failed(Errno)

        /// Why nothing was read, as the end of a sentence ("it is a FIFO").
        package var reason: String {
            switch self {
            case .contents: "it was read"
            case .missing: Errno.noSuchFileOrDirectory.description
            case .notRegular(let kind): "it is \(kind)"
            case .tooLarge(let limit):
                "it is larger than " + (limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes")
            case .failed(let error): error.description
            }
        }
    }

    /// Reads the small regular file at `path` whole (an ignore file, git's
    /// configuration, a recipe, an env file, a `/proc` entry), and never
    /// blocks on or reads anything else: a FIFO, socket, device or
    /// directory under that name is refused before it is opened, the file
    /// is opened non-blocking and without becoming a controlling terminal,
    /// and it is looked at again through the open descriptor (it may have
    /// been replaced in between). Without `followSymlinks` a symbolic link
    /// is refused (git does not follow an in-tree `.gitignore` that is one).
    package static func readFile(_ path: FilePath, limit: Int = 1 << 22, followSymlinks: Bool = true) -> FileRead {
        var info = stat()
        let looked = path.withPlatformString { followSymlinks ? stat($0, &info) : lstat($0, &info) }
        guard looked == 0 else { return errno == ENOENT || errno == ENOTDIR ? .missing : .failed(Errno(rawValue: errno)) }
        if let refusal = refusal(info, limit: limit) { return refusal }
        var flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY
        if !followSymlinks { flags |= O_NOFOLLOW }
        let fd = path.withPlatformString { open($0, flags) }
        guard fd >= 0 else { return errno == ENOENT ? .missing : .failed(Errno(rawValue: errno)) }
        defer { close(fd) }
        guard fstat(fd, &info) == 0 else { return .failed(Errno(rawValue: errno)) }
        if let refusal = refusal(info, limit: limit) { return refusal }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        // `/proc` entries say size 0: the limit is checked on what is read too.
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { return .failed(Errno(rawValue: errno)) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes.count > limit ? .tooLarge(limit: limit) : .contents(bytes)
    }

    /// Why a file described by `info` is not read, or nil for a regular
    /// file within `limit`.
    private static func refusal(_ info: stat, limit: Int) -> FileRead? {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return info.st_size > limit ? .tooLarge(limit: limit) : nil
        case S_IFDIR: return .notRegular(kind: "a directory")
        case S_IFIFO: return .notRegular(kind: "a FIFO")
        case S_IFSOCK: return .notRegular(kind: "a socket")
        case S_IFCHR, S_IFBLK: return .notRegular(kind: "a device")
        case S_IFLNK: return .notRegular(kind: "a symbolic link")
        default: return .notRegular(kind: "a special file")
        }
    }
}
