import Glibc
import WatchSources

/// A directory's entries with the `lstat` of each, read in one go outside
/// any lock: names in one buffer, so that a tree of 100,000 files costs
/// no allocation per name.
struct DirectoryListing {
    struct Entry {
        var start: Int32
        var length: UInt8
        var stat: FileStat
    }

    private(set) var names: [UInt8] = []
    private(set) var entries: [Entry] = []

    /// Reads the directory at `path` (absolute; not followed if it is a
    /// symlink), keeping the names `keep` accepts; nil when it cannot be
    /// read (gone, not a directory, no permission), with `errno` set.
    static func read(_ path: [UInt8], keep: (UnsafeBufferPointer<UInt8>) -> Bool) -> DirectoryListing? {
        let descriptor = open(Cookies.cPath(path), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var listing = DirectoryListing()
        let read = FileSystem.forEachEntry(of: descriptor) { name, _, _ in
            guard name.count <= 255, keep(name) else { return }
            var info = stat()
            let found = name.withMemoryRebound(to: CChar.self) { fstatat(descriptor, $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW) } == 0
            guard found else { return }
            listing.entries.append(Entry(start: Int32(listing.names.count), length: UInt8(name.count), stat: FileStat(info)))
            listing.names.append(contentsOf: name)
        }
        return read ? listing : nil
    }

    /// Calls `body` with the name of `entry`.
    func withName<R>(_ entry: Entry, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try names.withUnsafeBufferPointer { buffer in
            try body(UnsafeBufferPointer(rebasing: buffer[Int(entry.start)..<(Int(entry.start) + Int(entry.length))]))
        }
    }
}
