import Glibc

/// One name in a polled directory as the last pass saw it: what tells a
/// change apart (inode, size, mtime and ctime to the nanosecond, mode) and
/// nothing more. Trivial (no references), 40 bytes: a directory keeps the
/// index of its snapshot where a file keeps its size.
struct PollEntry {
    struct Flags: OptionSet {
        let rawValue: UInt8
        /// A directory (from `stat`, or from `d_type` for a skipped name).
        static let directory = Flags(rawValue: 1)
        /// Ignored or filtered out: kept by name only, never `stat`-ed
        /// (and for a directory, never entered).
        static let skipped = Flags(rawValue: 2)
        /// Changes of this path are reported.
        static let reported = Flags(rawValue: 4)
        /// `.gitignore` or `.ignore`: its rules are read again when it changes.
        static let ignoreFile = Flags(rawValue: 8)
    }

    var inode: UInt64 = 0
    /// A file's size, or a directory's snapshot index (-1 for none).
    private var sizeOrChild: Int64
    /// mtime, nanoseconds since the epoch.
    var modified: Int64 = 0
    /// ctime, nanoseconds since the epoch.
    var changed: Int64 = 0
    /// The name's first byte in its directory's `names`; NUL-terminated there.
    var nameStart: UInt32
    var mode: UInt16 = 0
    /// Linux names are at most 255 bytes.
    var nameLength: UInt8
    var flags: Flags

    init(nameStart: UInt32, nameLength: UInt8, flags: Flags) {
        self.nameStart = nameStart
        self.nameLength = nameLength
        self.flags = flags
        sizeOrChild = flags.contains(.directory) ? -1 : 0
    }

    var isDirectory: Bool { flags.contains(.directory) }

    /// A file's size (0 for a directory).
    var size: Int64 { isDirectory ? 0 : sizeOrChild }

    /// A watched directory's snapshot (`PollTree` index), or -1.
    var child: Int32 {
        get { isDirectory ? Int32(truncatingIfNeeded: sizeOrChild) : -1 }
        set {
            precondition(isDirectory, "only a directory has a snapshot")
            sizeOrChild = Int64(newValue)
        }
    }

    /// Takes the fields of `info` (from `fstatat`); the type must already
    /// be in `flags`.
    mutating func record(_ info: stat) {
        inode = UInt64(info.st_ino)
        if !isDirectory { sizeOrChild = Int64(info.st_size) }
        modified = PollEntry.nanoseconds(info.st_mtim)
        changed = PollEntry.nanoseconds(info.st_ctim)
        mode = UInt16(truncatingIfNeeded: info.st_mode)
    }

    static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

/// A polled directory: its entries in the order the kernel lists them
/// (the next pass usually finds the same order and compares in step,
/// without sorting or hashing), their names in one buffer.
struct PollDirectory {
    var entries: [PollEntry] = []
    /// Every entry's name, each followed by a NUL.
    var names: [UInt8] = []
    /// `st_dev` and `st_ino` of the directory itself.
    var device: UInt64
    var inode: UInt64
    /// The directory holding this one (-1 for a subtree's top).
    var parent: Int32
    /// The filter generation the entries' flags were decided under; a
    /// different one makes the next scan decide again.
    var generation: UInt32
    /// The next scan takes what it finds as the starting point and reports nothing.
    var baseline: Bool
    /// One of the entries is an ignore file (`.gitignore`, `.ignore`).
    var hasIgnoreFile = false

    /// The name of `entry`, without its NUL.
    func name(_ entry: PollEntry) -> ArraySlice<UInt8> {
        names[Int(entry.nameStart)..<Int(entry.nameStart) + Int(entry.nameLength)]
    }
}

/// Every polled directory of one `PollJob`, in an arena: moving a
/// directory moves one index, and snapshots hold no references.
struct PollTree {
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private(set) var directories: [PollDirectory] = []
    private var free: [Int32] = []
    /// Every directory by device and inode, to follow a directory that
    /// moved to a part of the tree scanned before its old place.
    private(set) var byIdentity: [Identity: Int32] = [:]

    subscript(index: Int32) -> PollDirectory {
        get { directories[Int(index)] }
        _modify { yield &directories[Int(index)] }
    }

    /// A new, empty directory snapshot.
    mutating func make(device: UInt64, inode: UInt64, parent: Int32, generation: UInt32, baseline: Bool) -> Int32 {
        let directory = PollDirectory(device: device, inode: inode, parent: parent, generation: generation, baseline: baseline)
        let index: Int32
        if let reused = free.popLast() {
            index = reused
            directories[Int(index)] = directory
        } else {
            index = Int32(directories.count)
            directories.append(directory)
        }
        byIdentity[Identity(device: device, inode: inode)] = index
        return index
    }

    /// Frees `index` and every directory below it.
    mutating func release(_ index: Int32) {
        var stack = [index]
        while let next = stack.popLast() {
            let directory = directories[Int(next)]
            for entry in directory.entries where entry.child >= 0 { stack.append(entry.child) }
            let identity = Identity(device: directory.device, inode: directory.inode)
            if byIdentity[identity] == next { byIdentity[identity] = nil }
            directories[Int(next)] = PollDirectory(device: 0, inode: 0, parent: -1, generation: 0, baseline: false)
            free.append(next)
        }
    }

    /// Makes every directory at or below `index` decide its entries' flags again.
    mutating func invalidate(_ index: Int32) {
        var stack = [index]
        while let next = stack.popLast() {
            directories[Int(next)].generation = .max
            for entry in directories[Int(next)].entries where entry.child >= 0 { stack.append(entry.child) }
        }
    }

    /// Removes the entry whose snapshot is `child` from its parent (the
    /// directory moved elsewhere); the entry's other names stay valid.
    mutating func detach(_ child: Int32) {
        let parent = directories[Int(child)].parent
        guard parent >= 0 else { return }
        directories[Int(parent)].entries.removeAll { $0.child == child }
        directories[Int(child)].parent = -1
    }

    var count: Int { directories.count - free.count }
}
