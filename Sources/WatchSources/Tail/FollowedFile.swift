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
    /// Absolute path, and its directory.
    let absolute: FilePath
    let directory: FilePath

    /// The open file, or -1 while waiting for the name to appear.
    var fd: Int32 = -1
    var device: UInt64 = 0
    var inode: UInt64 = 0
    /// Bytes of the open file read so far.
    var offset: Int = 0
    var splitter = LineSplitter()
    /// Looked at every poll interval instead of watched with inotify (a
    /// network or FUSE mount, polling asked for, or no inotify left).
    var polled = false
    /// The open file is not a regular file but a FIFO, a pipe, a terminal
    /// or another device: it has no size and no offsets, so it is read
    /// with `read` whenever `poll` says it is readable, from the moment it
    /// was opened (a start option does not apply).
    var isStream = false
    /// The name is one of this process's descriptors (`namesDescriptor`):
    /// a pipe under it is the one the process was given, which no one can
    /// open again for writing once it has ended, so it is never reopened;
    /// and once the process closes its own descriptor, the number may be
    /// another file's, so the name is not looked up while its file is open.
    let isInheritedDescriptor: Bool
    /// The open stream is a named FIFO: when its last writer has gone, it
    /// is opened again for the next one, as `while :; do cat fifo; done`
    /// would. Any other stream ends its name at its end.
    var reopensAtEnd = false
    /// What the follower knows of the name: waiting for it, following
    /// its file, reading a file renamed away, finished.
    var machine = TailMachine()

    /// `path`, or standard input for `-` (as `tail` reads it).
    init(path: FilePath, currentDirectory: FilePath) throws(TailError) {
        self.path = path
        let given = path == "-" ? FollowedFile.standardInput : path
        let absolute = given.isAbsolute ? given : currentDirectory.pushing(given)
        guard absolute.lastComponent != nil else {
            throw TailError(path: path, problem: "not a file name")
        }
        self.absolute = absolute
        self.directory = absolute.removingLastComponent()
        isInheritedDescriptor = FollowedFile.namesDescriptor(absolute)
    }

    /// What `-` stands for: a name that opens the process's standard
    /// input anew (a description of its own, so `O_NONBLOCK` on it changes
    /// nothing for the shell sharing a terminal).
    static let standardInput: FilePath = "/dev/stdin"

    /// Whether `absolute` is one of this process's descriptors (`-`,
    /// `/dev/stdin`, `/dev/fd/N`, `/proc/self/fd/N`), compared as bytes.
    static func namesDescriptor(_ absolute: FilePath) -> Bool {
        absolute.withPlatformString { name in
            let bytes = UnsafeRawBufferPointer(start: name, count: strlen(name))
            return bytes.elementsEqual("/dev/stdin".utf8) || bytes.starts(with: "/dev/fd/".utf8)
                || bytes.starts(with: "/proc/self/fd/".utf8)
        }
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
