import Glibc
import SystemPackage

/// A pass's subtrees: a directory tree begun (its top looked for, taken as
/// the baseline or reported), a single file compared, a subtree or the
/// client's root that vanished.
extension PollMachine {
    /// Begins subtree `index`: a single file is compared at once; a
    /// directory tree's top is queued. Returns where the pass goes on.
    func begin<System: PollSystem>(subtree index: Int, _ system: System, _ changes: inout PollChanges) -> Phase {
        if subtrees[index].isFile {
            checkFile(index, system, &changes)
            return .beginning(subtree: index + 1)
        }
        var subtree = subtrees[index]
        let path = subtree.path + [0]
        if subtree.top < 0 {
            var info = stat()
            guard system.status(of: path, following: true, &info), info.st_mode & S_IFMT == S_IFDIR else {
                if subtree.isClientRoot { rootVanished(&subtree, &changes, system) }
                subtrees[index] = subtree
                // A subtree other than the client's root whose directory
                // vanished is gone for good: the backend that watches its
                // parent reports that.
                if subtree.isClientRoot || !subtree.seen { return .beginning(subtree: index + 1) }
                subtrees.remove(at: index)
                return .beginning(subtree: index)
            }
            let reappeared = subtree.isClientRoot && rootGone
            if reappeared {
                rootGone = false
                changes.appeared.append(PollChanges.Item(
                    path: subtree.path, identity: .init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)),
                    size: 0, modified: 0, isDirectory: true, reported: true, replaced: false))
            }
            subtree.top = tree.make(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), parent: -1,
                                    generation: generation, baseline: !(subtree.reportsFirstScan || reappeared))
            subtree.reportsFirstScan = false
            subtree.seen = true
            subtrees[index] = subtree
        }
        return .scanning(subtree: index, stack: [Pending(index: subtree.top, path: path,
                                                         relativeStart: path.count - 1 - subtree.relative.count,
                                                         mustList: true, isTop: true)])
    }

    /// Subtree `index`'s own directory is gone: what it held is deleted.
    func topVanished<System: PollSystem>(_ index: Int, _ changes: inout PollChanges, _ system: System) -> Phase {
        var subtree = subtrees[index]
        deleteTree(subtree.top, at: subtree.path, &changes)
        subtree.top = -1
        guard subtree.isClientRoot else {
            subtrees.remove(at: index)
            return .beginning(subtree: index)
        }
        rootVanished(&subtree, &changes, system)
        subtrees[index] = subtree
        return .beginning(subtree: index + 1)
    }

    /// The client's root directory vanished: report it once, then wait.
    private func rootVanished<System: PollSystem>(_ subtree: inout Subtree, _ changes: inout PollChanges, _ system: System) {
        guard subtree.seen, !rootGone else { return }
        rootGone = true
        changes.direct.append(PollChanges.event(subtree.path, .deleted, isDirectory: true))
        flush(&changes, system)
        rootMissing(subtree.path)
    }

    /// The client's root at `path` is gone, its deletions handed out: the
    /// client ends here if it asked to, else the job waits for the root.
    private func rootMissing(_ path: [UInt8]) {
        if onRootDeleted == .fail { outbox.append(.fail(FileWatchError(.rootDeleted(FilePath(bytes: path))))) }
    }

    /// A watched single file: compared by `stat` (following a symbolic
    /// link, as the root was named).
    private func checkFile<System: PollSystem>(_ index: Int, _ system: System, _ changes: inout PollChanges) {
        var info = stat()
        let path = subtrees[index].path
        guard system.status(of: path + [0], following: true, &info) else {
            guard subtrees[index].file != nil else { return }
            let since = subtrees[index].missingSince ?? now
            subtrees[index].missingSince = since
            if now - since >= PollMachine.fileGraceSeconds {
                subtrees[index].file = nil
                subtrees[index].missingSince = nil
                rootGone = true
                changes.direct.append(PollChanges.event(path, .deleted))
                flush(&changes, system)
                rootMissing(path)
            }
            return
        }
        subtrees[index].missingSince = nil
        var entry = PollEntry(nameStart: 0, nameLength: 0, flags: info.st_mode & S_IFMT == S_IFDIR ? [.reported, .directory] : .reported)
        entry.record(info)
        defer { subtrees[index].file = entry }
        guard let old = subtrees[index].file else {
            if rootGone || subtrees[index].reportsFirstScan {
                rootGone = false
                subtrees[index].reportsFirstScan = false
                changes.appeared.append(PollChanges.Item(
                    path: path, identity: .init(device: UInt64(info.st_dev), inode: entry.inode),
                    size: entry.size, modified: entry.modified, isDirectory: false, reported: true, replaced: false))
            }
            return
        }
        if old.inode != entry.inode || old.size != entry.size || old.modified != entry.modified {
            changes.direct.append(PollChanges.event(path, .modified))
        } else if old.changed != entry.changed || old.mode != entry.mode {
            changes.direct.append(PollChanges.event(path, .attributes))
        }
    }

    /// Reports everything below directory `index` (at `path`) as deleted,
    /// children first, and frees its snapshots. The directory itself is
    /// left to the caller.
    func deleteTree(_ index: Int32, at path: [UInt8], _ changes: inout PollChanges) {
        guard index >= 0 else { return }
        var events: [FileEvent] = []
        collectDeletions(index, path, &events)
        changes.direct += events
        tree.release(index)
    }

    private func collectDeletions(_ index: Int32, _ path: [UInt8], _ events: inout [FileEvent]) {
        let directory = tree[index]
        for entry in directory.entries where !entry.flags.contains(.skipped) {
            let child = path + [UInt8(ascii: "/")] + directory.name(entry)
            if entry.child >= 0 { collectDeletions(entry.child, child, &events) }
            if entry.flags.contains(.reported) {
                events.append(PollChanges.event(child, .deleted, isDirectory: entry.isDirectory))
            }
        }
    }

    /// Whether `path` (absolute, bytes) names something now.
    static func exists<System: PollSystem>(_ path: [UInt8], _ system: System) -> Bool {
        var info = stat()
        return system.status(of: path + [0], following: false, &info)
    }
}
