import Glibc
import SystemPackage

/// A file tree in memory and the inotify watches on it: what a
/// `VirtualFileSystem` hands the reader's machine as its `ReaderSystem`, so
/// that a recipe's tests go through the machine that decides for a real
/// watch (saves, renames, new directories, default ignores, globs), with
/// no file touched. It also says which records the kernel would queue for
/// a change (`records(…)`), for the directories that are watched.
struct VirtualTree: ReaderSystem {
    /// A regular file or a symbolic link, and when it last changed (wall clock).
    struct Entry {
        var bytes: [UInt8]
        var changed: Double
        var isLink = false
    }

    private(set) var directories: Set<FilePath> = ["/"]
    private(set) var entries: [FilePath: Entry] = [:]
    /// Watched directories and their descriptors.
    private(set) var watches: [FilePath: Int32] = [:]
    private var nextWD: Int32 = 1

    // MARK: ReaderSystem

    mutating func watch(_ directory: FilePath) -> InotifyInstance.Outcome {
        guard directories.contains(directory) else { return .failed(errno: entries[directory] == nil ? ENOENT : ENOTDIR) }
        if let wd = watches[directory] { return .watching(wd: wd) }
        defer { nextWD += 1 }
        watches[directory] = nextWD
        return .watching(wd: nextWD)
    }

    mutating func unwatch(_ wd: Int32) {
        watches = watches.filter { $0.value != wd }
    }

    func watchLimit() -> Int { 1 << 20 }

    func watchHolders() -> String? { nil }

    func kind(_ path: FilePath, follow: Bool) -> FileSystem.Kind {
        directories.contains(path) ? .directory : entries[path] == nil ? .missing : .other
    }

    func isMadeWhole(_ path: FilePath) -> Bool { entries[path]?.isLink ?? false }

    func changeTime(_ path: FilePath) -> Double? { entries[path]?.changed }

    func forEachEntry(in directory: FilePath, _ body: (UnsafeBufferPointer<UInt8>, _ isDirectory: Bool) -> Void) -> Bool {
        guard directories.contains(directory) else { return false }
        for path in directories where path != directory && path.removingLastComponent() == directory {
            path.lastComponent!.withBytes { body($0, true) }
        }
        for path in entries.keys where path.removingLastComponent() == directory {
            path.lastComponent!.withBytes { body($0, false) }
        }
        return true
    }

    mutating func mounts() -> MountTable { MountTable(mounts: []) }

    func tracked(_ lookups: [TrackedFiles.Lookup]) -> [FilePath: TrackedFiles] { [:] }

    // MARK: Changing the tree

    /// Whether `path` is a file (or link) of the tree.
    func isFile(_ path: FilePath) -> Bool { entries[path] != nil }

    /// Whether `path` is a directory of the tree.
    func isDirectory(_ path: FilePath) -> Bool { directories.contains(path) }

    /// The contents of the file at `path`.
    func contents(_ path: FilePath) -> [UInt8]? { entries[path]?.bytes }

    /// Makes `path` a directory (and the missing ones above it): the
    /// records of each directory made, top first.
    mutating func makeDirectory(_ path: FilePath) -> [InotifyRecord] {
        guard !directories.contains(path) else { return [] }
        let parent = path.removingLastComponent()
        var records = parent == path ? [] : makeDirectory(parent)
        directories.insert(path)
        records += record(path, InotifyRecord.create | InotifyRecord.isDirectory)
        return records
    }

    /// Writes `bytes` to `path` through one open: its creation (and its
    /// directories') when new, the write unless `bytes` is empty and the
    /// file new, and the close.
    mutating func write(_ path: FilePath, _ bytes: [UInt8], at wall: Double) -> [InotifyRecord] {
        var records = makeDirectory(path.removingLastComponent())
        let isNew = entries[path] == nil
        if isNew { records += record(path, InotifyRecord.create) }
        entries[path] = Entry(bytes: bytes, changed: wall)
        if !isNew || !bytes.isEmpty { records += record(path, InotifyRecord.modify) }
        return records + record(path, InotifyRecord.closeWrite)
    }

    /// Makes `path` a symbolic link (emacs' lock file).
    mutating func link(_ path: FilePath, at wall: Double) -> [InotifyRecord] {
        entries[path] = Entry(bytes: [], changed: wall, isLink: true)
        return record(path, InotifyRecord.create)
    }

    /// Changes `path`'s attributes (a `chmod`).
    mutating func touchAttributes(_ path: FilePath, at wall: Double) -> [InotifyRecord] {
        if entries[path] != nil { entries[path]!.changed = wall }
        let bits = InotifyRecord.attrib | (directories.contains(path) ? InotifyRecord.isDirectory : 0)
        return record(path, bits)
    }

    /// Deletes the file, link or directory tree at `path`.
    mutating func remove(_ path: FilePath) -> [InotifyRecord] {
        if entries.removeValue(forKey: path) != nil { return record(path, InotifyRecord.delete) }
        guard directories.contains(path), path != "/" else { return [] }
        var records: [InotifyRecord] = []
        for entry in entries.keys where entry.removingLastComponent() == path { records += remove(entry) }
        for directory in directories where directory != path && directory.removingLastComponent() == path {
            records += remove(directory)
        }
        directories.remove(path)
        records += record(path, InotifyRecord.delete | InotifyRecord.isDirectory)
        if let wd = watches.removeValue(forKey: path) {
            records.append(InotifyRecord(wd: wd, mask: InotifyRecord.deleteSelf, cookie: 0, name: nil))
            records.append(InotifyRecord(wd: wd, mask: InotifyRecord.ignored, cookie: 0, name: nil))
        }
        return records
    }

    /// Renames `from` to `to` (replacing a file there), as one rename's two
    /// halves tied by `cookie`.
    mutating func rename(_ from: FilePath, to: FilePath, cookie: UInt32, at wall: Double) -> [InotifyRecord] {
        var records = makeDirectory(to.removingLastComponent())
        if var entry = entries.removeValue(forKey: from) {
            entry.changed = wall
            entries[to] = entry
            records += record(from, InotifyRecord.movedFrom, cookie: cookie)
            return records + record(to, InotifyRecord.movedTo, cookie: cookie)
        }
        guard directories.contains(from) else { return records }
        let moved = { (path: FilePath) -> FilePath in
            var relative = path
            _ = relative.removePrefix(from)
            return to.pushing(relative)
        }
        directories = Set(directories.map { $0.starts(with: from) ? moved($0) : $0 })
        entries = Dictionary(uniqueKeysWithValues: entries.map { ($0.key.starts(with: from) ? moved($0.key) : $0.key, $0.value) })
        // A watch follows its directory (the kernel's watches are on inodes).
        watches = Dictionary(uniqueKeysWithValues: watches.map { ($0.key.starts(with: from) ? moved($0.key) : $0.key, $0.value) })
        let bits = InotifyRecord.isDirectory
        records += record(from, InotifyRecord.movedFrom | bits, cookie: cookie, watchedAs: from.removingLastComponent())
        return records + record(to, InotifyRecord.movedTo | bits, cookie: cookie)
    }

    /// The record the watch of `path`'s directory gets for it, if watched.
    private func record(_ path: FilePath, _ mask: UInt32, cookie: UInt32 = 0, watchedAs directory: FilePath? = nil) -> [InotifyRecord] {
        guard let wd = watches[directory ?? path.removingLastComponent()], let name = path.lastComponent else { return [] }
        return [InotifyRecord(wd: wd, mask: mask, cookie: cookie, name: name)]
    }
}
