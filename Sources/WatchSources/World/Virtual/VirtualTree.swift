import Glibc
import Signals
import SystemPackage

/// A file tree in memory and the inotify watches on it: what a
/// `VirtualFileSystem` hands the reader's machine as its `ReaderSystem`, so
/// that a recipe's tests go through the machine that decides for a real
/// watch (saves, renames, new directories, ignore files, default ignores,
/// globs), with no file touched. It also says which records the kernel
/// would queue for a change (`records(…)`), for the directories watched.
struct VirtualTree: ReaderSystem {
    /// A regular file or a symbolic link, and when it last changed (wall clock).
    struct Entry: Sendable {
        var bytes: [UInt8]
        var changed: Double
        var isLink = false
    }

    /// The directories and files: one place, in a box of its own, so that
    /// the watches' filters read rule files from it (`Store.read`) while
    /// the machine decides, under no other lock.
    final class Store: Sendable {
        struct Contents: Sendable {
            var directories: Set<FilePath> = ["/"]
            var entries: [FilePath: Entry] = [:]
        }

        private let contents = Locked(Contents())

        /// A rule file, as `FileSystem.readFile` would read it from disk.
        func read(_ path: FilePath, limit: Int, followSymlinks: Bool) -> FileSystem.FileRead {
            contents.withLock { contents in
                if contents.directories.contains(path) { return .notRegular(kind: "a directory") }
                guard let entry = contents.entries[path] else { return .missing }
                if entry.isLink { return followSymlinks ? .missing : .notRegular(kind: "a symbolic link") }
                return entry.bytes.count > limit ? .tooLarge(limit: limit) : .contents(entry.bytes)
            }
        }

        fileprivate func with<Result>(_ body: (inout Contents) -> Result) -> Result {
            contents.withLock { body(&$0) }
        }
    }

    let store = Store()
    /// Watched directories and their descriptors.
    private(set) var watches: [FilePath: Int32] = [:]
    private var nextWD: Int32 = 1

    // MARK: ReaderSystem

    mutating func watch(_ directory: FilePath) -> InotifyInstance.Outcome {
        let kind = self.kind(directory, follow: true)
        guard kind == .directory else { return .failed(errno: kind == .missing ? ENOENT : ENOTDIR) }
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
        store.with { $0.directories.contains(path) ? .directory : $0.entries[path] == nil ? .missing : .other }
    }

    func isMadeWhole(_ path: FilePath) -> Bool { store.with { $0.entries[path]?.isLink ?? false } }

    func changeTime(_ path: FilePath) -> Double? { store.with { $0.entries[path]?.changed } }

    func forEachEntry(in directory: FilePath, _ body: (UnsafeBufferPointer<UInt8>, _ isDirectory: Bool) -> Void) -> Bool {
        let listing = store.with { contents -> [(FilePath.Component, Bool)]? in
            guard contents.directories.contains(directory) else { return nil }
            let directories = contents.directories.filter { $0 != directory && $0.removingLastComponent() == directory }
            let files = contents.entries.keys.filter { $0.removingLastComponent() == directory }
            return directories.compactMap { $0.lastComponent.map { ($0, true) } } + files.compactMap { $0.lastComponent.map { ($0, false) } }
        }
        guard let listing else { return false }
        for (name, isDirectory) in listing { name.withBytes { body($0, isDirectory) } }
        return true
    }

    mutating func mounts() -> MountTable { MountTable(mounts: []) }

    func tracked(_ lookups: [TrackedFiles.Lookup]) -> [FilePath: TrackedFiles] { [:] }

    // MARK: Changing the tree

    /// Whether `path` is a file (or link) of the tree.
    func isFile(_ path: FilePath) -> Bool { kind(path, follow: false) == .other }

    /// Whether `path` is a directory of the tree.
    func isDirectory(_ path: FilePath) -> Bool { kind(path, follow: false) == .directory }

    /// Makes `path` a directory (and the missing ones above it): the
    /// records of each directory made, top first.
    mutating func makeDirectory(_ path: FilePath) -> [InotifyRecord] {
        guard !isDirectory(path) else { return [] }
        let parent = path.removingLastComponent()
        var records = parent == path ? [] : makeDirectory(parent)
        store.with { _ = $0.directories.insert(path) }
        records += record(path, InotifyRecord.create | InotifyRecord.isDirectory)
        return records
    }

    /// Writes `bytes` to `path` through one open: its creation (and its
    /// directories') when new, the write unless `bytes` is empty and the
    /// file new, and the close.
    mutating func write(_ path: FilePath, _ bytes: [UInt8], at wall: Double) -> [InotifyRecord] {
        var records = makeDirectory(path.removingLastComponent())
        let isNew = store.with { contents in
            defer { contents.entries[path] = Entry(bytes: bytes, changed: wall) }
            return contents.entries[path] == nil
        }
        if isNew { records += record(path, InotifyRecord.create) }
        if !isNew || !bytes.isEmpty { records += record(path, InotifyRecord.modify) }
        return records + record(path, InotifyRecord.closeWrite)
    }

    /// Makes `path` a symbolic link (emacs' lock file).
    mutating func link(_ path: FilePath, at wall: Double) -> [InotifyRecord] {
        store.with { $0.entries[path] = Entry(bytes: [], changed: wall, isLink: true) }
        return record(path, InotifyRecord.create)
    }

    /// Changes `path`'s attributes (a `chmod`).
    mutating func touchAttributes(_ path: FilePath, at wall: Double) -> [InotifyRecord] {
        store.with { contents in
            if contents.entries[path] != nil { contents.entries[path]!.changed = wall }
        }
        return record(path, InotifyRecord.attrib | (isDirectory(path) ? InotifyRecord.isDirectory : 0))
    }

    /// Deletes the file, link or directory tree at `path`.
    mutating func remove(_ path: FilePath) -> [InotifyRecord] {
        if store.with({ $0.entries.removeValue(forKey: path) }) != nil { return record(path, InotifyRecord.delete) }
        guard isDirectory(path), path != "/" else { return [] }
        let (files, directories) = store.with { contents in
            (contents.entries.keys.filter { $0.removingLastComponent() == path },
             contents.directories.filter { $0 != path && $0.removingLastComponent() == path })
        }
        var records: [InotifyRecord] = []
        for entry in files { records += remove(entry) }
        for directory in directories { records += remove(directory) }
        store.with { _ = $0.directories.remove(path) }
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
        let movedFile = store.with { contents -> Bool in
            guard var entry = contents.entries.removeValue(forKey: from) else { return false }
            entry.changed = wall
            contents.entries[to] = entry
            return true
        }
        if movedFile {
            records += record(from, InotifyRecord.movedFrom, cookie: cookie)
            return records + record(to, InotifyRecord.movedTo, cookie: cookie)
        }
        guard isDirectory(from) else { return records }
        let moved = { (path: FilePath) -> FilePath in
            guard path.starts(with: from) else { return path }
            var relative = path
            _ = relative.removePrefix(from)
            return to.pushing(relative)
        }
        store.with { contents in
            contents.directories = Set(contents.directories.map(moved))
            contents.entries = Dictionary(uniqueKeysWithValues: contents.entries.map { (moved($0.key), $0.value) })
        }
        // A watch follows its directory (the kernel's watches are on inodes).
        watches = Dictionary(uniqueKeysWithValues: watches.map { (moved($0.key), $0.value) })
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
