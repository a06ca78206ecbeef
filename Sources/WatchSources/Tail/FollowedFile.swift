#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// What the follower knows about one followed name: the file open under it
/// (kept open across rotation until the name points at a new file), how far
/// it was read, and the unfinished line it holds.
struct FollowedFile {
    /// The path as the user gave it, which tags every line.
    let path: FilePath
    /// Absolute path, its directory and its last component (as bytes, to
    /// compare with the names inotify reports).
    let absolute: FilePath
    let directory: FilePath
    let name: [UInt8]

    /// The open file, or -1 while waiting for the name to appear.
    var fd: Int32 = -1
    var device: UInt64 = 0
    var inode: UInt64 = 0
    /// Bytes of the open file read so far.
    var offset: Int = 0
    /// The inotify watch on the open file, or -1.
    var fileWatch: Int32 = -1
    /// The watch on `directory`, or -1 while it is missing.
    var directoryWatch: Int32 = -1
    /// While `directory` is missing: the watch on its nearest existing
    /// ancestor, or -1.
    var ancestorWatch: Int32 = -1
    var splitter = LineSplitter()
    /// Looked at every poll interval instead of watched with inotify (a
    /// network or FUSE mount, polling asked for, or no inotify left).
    var polled = false

    init(path: FilePath, currentDirectory: FilePath) throws(TailError) {
        self.path = path
        let absolute = path.isAbsolute ? path : currentDirectory.pushing(path)
        guard let name = absolute.lastComponent else {
            throw TailError(path: path, problem: "not a file name")
        }
        self.absolute = absolute
        self.directory = absolute.removingLastComponent()
        self.name = name.bytes
    }

    /// The directory that holds `path` ("/" for "/" itself).
    static func parent(of path: FilePath) -> FilePath {
        path.removingLastComponent()
    }

    /// `path`, or its nearest ancestor that exists.
    static func existingAncestor(of path: FilePath) -> FilePath {
        var current = path
        while current.withPlatformString({ access($0, F_OK) }) != 0, current != "/" { current = parent(of: current) }
        return current
    }

    /// Whether `info` describes the file that is open now.
    func isOpenFile(_ info: stat) -> Bool {
        fd >= 0 && UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }
}
