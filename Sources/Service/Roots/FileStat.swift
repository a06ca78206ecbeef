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

/// The (uid, gid, device) triples of a tree, each kept once: a tree has
/// few, and an entry keeps a 16-bit index instead of 16 bytes.
struct Owners: Sendable {
    struct Owner: Hashable, Sendable {
        var uid: UInt32
        var gid: UInt32
        var dev: UInt64
    }

    private var list: [Owner] = []
    private var indexes: [Owner: UInt16] = [:]

    /// The index of `owner`; past 16,383 distinct triples (an entry keeps
    /// 14 bits), the last index is shared (its reported owner may then be wrong).
    mutating func intern(_ owner: Owner) -> UInt16 {
        if let index = indexes[owner] { return index }
        guard list.count < Int(FileEntry.ownerLimit) else { return FileEntry.ownerLimit - 1 }
        let index = UInt16(list.count)
        list.append(owner)
        indexes[owner] = index
        return index
    }

    func owner(_ index: UInt16) -> Owner {
        Int(index) < list.count ? list[Int(index)] : Owner(uid: 0, gid: 0, dev: 0)
    }
}
