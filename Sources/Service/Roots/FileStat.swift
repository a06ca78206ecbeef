import Glibc

/// What `lstat` says of a name, as the table keeps it.
struct FileStat: Sendable, Equatable {
    var size: Int64
    var ino: UInt64
    var dev: UInt64
    var mode: UInt32
    var uid: UInt32
    var gid: UInt32
    var nlink: UInt32
    /// Nanoseconds since the epoch.
    var mtime: Int64
    var ctime: Int64

    init(_ info: stat) {
        size = Int64(info.st_size)
        ino = UInt64(info.st_ino)
        dev = UInt64(info.st_dev)
        mode = UInt32(info.st_mode)
        uid = UInt32(info.st_uid)
        gid = UInt32(info.st_gid)
        nlink = UInt32(clamping: info.st_nlink)
        mtime = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
        ctime = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
    }

    init(size: Int64 = 0, ino: UInt64 = 0, dev: UInt64 = 0, mode: UInt32, uid: UInt32 = 0, gid: UInt32 = 0,
         nlink: UInt32 = 1, mtime: Int64 = 0, ctime: Int64 = 0) {
        self.size = size
        self.ino = ino
        self.dev = dev
        self.mode = mode
        self.uid = uid
        self.gid = gid
        self.nlink = nlink
        self.mtime = mtime
        self.ctime = ctime
    }

    var type: FileType { FileType(mode: mode) }

    /// `lstat` of `name` in the directory open as `directory` (or of an
    /// absolute path with `AT_FDCWD`); nil with `errno` set when it fails.
    static func of(_ name: UnsafePointer<CChar>, in directory: Int32 = AT_FDCWD) -> FileStat? {
        var info = stat()
        guard fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return FileStat(info)
    }
}

/// What an entry's `lstat` says that many entries share, kept once per
/// distinct value: the owner, group and device, and the bits of the inode
/// number, size and link count above what an entry keeps itself (zero
/// for nearly every file; an overlay's or a large XFS's inode numbers
/// share theirs). A tree has few distinct records.
struct SharedFields: Sendable {
    struct Record: Hashable, Sendable {
        var uid: UInt32
        var gid: UInt32
        var dev: UInt64
        var inoHigh: UInt32
        var sizeHigh: UInt32
        var nlinkHigh: UInt8

        /// The part of `stat` that an entry does not keep itself.
        init(_ stat: FileStat) {
            uid = stat.uid
            gid = stat.gid
            dev = stat.dev
            inoHigh = UInt32(truncatingIfNeeded: stat.ino >> 32)
            sizeHigh = UInt32(truncatingIfNeeded: UInt64(max(0, stat.size)) >> 32)
            nlinkHigh = UInt8(truncatingIfNeeded: stat.nlink >> 24)
        }
    }

    private var list: [Record] = []
    private var indexes: [Record: UInt32] = [:]

    /// The index of `record`, added if new.
    mutating func intern(_ record: Record) -> UInt32 {
        if let index = indexes[record] { return index }
        let index = UInt32(list.count)
        list.append(record)
        indexes[record] = index
        return index
    }

    subscript(index: UInt32) -> Record { list[Int(index)] }

    /// Distinct records held.
    var count: Int { list.count }
}
