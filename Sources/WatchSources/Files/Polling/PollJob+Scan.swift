import Glibc
import SystemPackage

/// Scanning one directory of a polling pass: list it, `stat` what is not
/// ignored (relative to the open directory), compare with the snapshot.
///
/// An unchanged directory is compared in step with its snapshot (the
/// kernel lists names in the same order while nothing changes), updating
/// it in place: no sorting, hashing or allocation. Only when names come or
/// go is the snapshot rebuilt. Changes of content (`modified`) and
/// metadata (`attributes`) go out as soon as the directory is done; what
/// appeared and vanished waits for the end of the pass, where moves are
/// paired (`PollChanges`). Ignored names are kept by name, never `stat`-ed,
/// and ignored directories are never entered.
extension PollJob {
    /// Scans `item`, queueing the directories below it on `stack`. False
    /// when the directory could not be opened (gone, or no longer one).
    ///
    /// A directory whose mtime and ctime did not change since the last pass
    /// (and are older than a second, so that two changes within one clock
    /// tick cannot hide) holds the same names: on a local file system,
    /// where those times are this kernel's own, its listing is not read
    /// again, only its entries `stat`-ed.
    func scanDirectory(_ item: Pending, _ changes: inout PollChanges, _ stack: inout [Pending]) -> Bool {
        let descriptor = item.path.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                open($0.baseAddress!, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (item.isTop ? 0 : O_NOFOLLOW))
            }
        }
        guard descriptor >= 0 else { return false }
        let sameNames = !item.mustList && !tree[item.index].baseline && trustsDirectoryTimes(tree[item.index].device)
        var scan = DirectoryScan(job: self, item: item, descriptor: descriptor)
        if sameNames {
            defer { close(descriptor) }
            // The names buffer is only read while the scan runs; the entries
            // are read through the scan, which updates them in place.
            let known = scan.oldNames
            known.withUnsafeBytes { names in
                for position in 0..<scan.oldCount {
                    let (start, length, isDirectory) = scan.nameOfOld(position)
                    let name = UnsafeRawBufferPointer(start: names.baseAddress! + start, count: length)
                    scan.visit(name, type: isDirectory ? UInt8(DT_DIR) : UInt8(DT_REG))
                }
            }
            scan.finish(&changes, &stack)
            return true
        }
        let listed = FileSystem.forEachEntry(of: descriptor) { name, type, inode in
            scan.visit(UnsafeRawBufferPointer(name), type: type, inode: inode)
        }
        guard listed else { return false }
        scan.finish(&changes, &stack)
        return true
    }

    /// Whether directory times on `device` are this kernel's own (a local
    /// file system), so that an unchanged mtime means unchanged names.
    func trustsDirectoryTimes(_ device: UInt64) -> Bool {
        if let known = localDevices[device] { return known }
        let local = MountTable.current().mount(device: device).map { MountTable.hasLocalTimes(fsType: $0.fsType) } ?? false
        localDevices[device] = local
        return local
    }

    /// Whether an ignore file of the directory open at `descriptor` differs
    /// from what the snapshot `index` holds (appeared, vanished, changed).
    func ignoreFilesChanged(_ descriptor: Int32, _ index: Int32) -> Bool {
        let directory = tree[index]
        for name in PathFilter.ruleFileNames.map(\.string) {
            var info = stat()
            let exists = fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0
            let bytes = Array(name.utf8)
            let known = directory.entries.first { entry in
                entry.flags.contains(.ignoreFile) && directory.name(entry).elementsEqual(bytes)
            }
            guard let known else {
                if exists { return true }
                continue
            }
            if !exists || known.inode != UInt64(info.st_ino) || known.size != Int64(info.st_size)
                || known.modified != Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            {
                return true
            }
        }
        return false
    }

    /// The flags of a name at `relative` (below the client's root) under the current filter.
    func decide(_ relative: ArraySlice<UInt8>, _ name: UnsafeRawBufferPointer, isDirectory: Bool) -> PollEntry.Flags {
        var path = Array(relative)
        if !path.isEmpty { path.append(UInt8(ascii: "/")) }
        path.append(contentsOf: name)
        let relativePath = FilePath(bytes: path)
        if isDirectory {
            guard filter.watchesDirectory(relativePath) else { return [.directory, .skipped] }
            return filter.reports(relativePath, isDirectory: true) ? [.directory, .reported] : [.directory]
        }
        let reported = filter.reports(relativePath, isDirectory: false)
        let ignoreFile = filter.readsDirectoryRuleFiles && relativePath.lastComponent.map(PathFilter.isRuleFileName) == true
        if !reported && !ignoreFile { return .skipped }
        var flags: PollEntry.Flags = reported ? .reported : []
        if ignoreFile { flags.insert(.ignoreFile) }
        return flags
    }

    /// Moves the generation on: every directory decides its entries' flags again.
    func bumpGeneration() {
        generation = generation &+ 1 == .max ? 0 : generation &+ 1
    }
}

/// The scan of one directory in progress: the snapshot taken out of the
/// tree (so it is mutated in place, not copied), the new listing, and what
/// appeared and vanished in it.
private struct DirectoryScan {
    let job: PollJob
    let item: Pending
    let descriptor: Int32
    let index: Int32
    let device: UInt64
    let baseline: Bool
    var restate: Bool
    /// Rules read from this directory's ignore files changed during the scan.
    var rulesChanged = false

    /// The snapshot; while `rebuilding` is false, updated in place.
    private(set) var old: [PollEntry]
    private(set) var oldNames: [UInt8]
    var rebuilding = false
    /// Next old entry expected in step.
    var cursor = 0
    var entries: [PollEntry] = []
    var names: [UInt8] = []
    var seen: [Bool] = []
    var lookup: [Int: [Int]]? = nil

    var immediate: [FileEvent] = []
    /// Positions (in the final listing) of what appeared, with the device it is on.
    var appeared: [(position: Int, device: UInt64, replaced: Bool)] = []
    var vanished: [(entry: PollEntry, name: [UInt8], replaced: Bool)] = []
    /// Inodes of ignored names that appeared: a reported file that vanished
    /// with one of these was renamed to an ignored name (an editor's backup).
    var skippedArrivals: Set<UInt64> = []
    /// Positions of directories whose listing must be read (new, changed, or changed lately).
    var mustList: Set<Int> = []

    typealias Pending = PollJob.Pending

    init(job: PollJob, item: Pending, descriptor: Int32) {
        self.job = job
        self.item = item
        self.descriptor = descriptor
        index = item.index
        device = job.tree[index].device
        baseline = job.tree[index].baseline
        restate = job.tree[index].generation != job.generation
        job.tree[index].baseline = false
        // Ignore files first: their rules decide the other names.
        if job.filter.readsDirectoryRuleFiles {
            let directory = job.tree[index]
            let recheck = item.mustList || directory.hasIgnoreFile
            if (job.reloadIgnoreFiles && directory.hasIgnoreFile) || (recheck && job.ignoreFilesChanged(descriptor, index)) {
                job.filter.loadDirectory(FilePath(bytes: item.relative), at: FilePath(bytes: item.path.dropLast()))
                job.rulesChanged = true
                if !job.reloadIgnoreFiles { job.bumpGeneration() }
                restate = true
            }
        }
        job.tree[index].generation = job.generation
        old = job.tree[index].entries
        oldNames = job.tree[index].names
        job.tree[index].entries = []
        job.tree[index].names = []
    }

    var oldCount: Int { old.count }

    /// Where the name of old entry `position` lies in `oldNames`, and whether it is a directory.
    func nameOfOld(_ position: Int) -> (start: Int, length: Int, isDirectory: Bool) {
        let entry = old[position]
        return (Int(entry.nameStart), Int(entry.nameLength), entry.isDirectory)
    }

    private func oldName(_ position: Int) -> ArraySlice<UInt8> {
        let entry = old[position]
        return oldNames[Int(entry.nameStart)..<Int(entry.nameStart) + Int(entry.nameLength)]
    }

    private func matches(_ position: Int, _ name: UnsafeRawBufferPointer) -> Bool {
        let entry = old[position]
        guard Int(entry.nameLength) == name.count else { return false }
        return oldNames.withUnsafeBytes { stored in
            memcmp(stored.baseAddress! + Int(entry.nameStart), name.baseAddress!, name.count) == 0
        }
    }

    private static func hash(_ bytes: some Sequence<UInt8>) -> Int {
        var hasher = Hasher()
        for byte in bytes { hasher.combine(byte) }
        return hasher.finalize()
    }

    /// Leaves the in-place mode: what was kept so far starts the new listing.
    private mutating func beginRebuild() {
        guard !rebuilding else { return }
        rebuilding = true
        entries.reserveCapacity(old.count + 8)
        names.reserveCapacity(oldNames.count + 64)
        seen = [Bool](repeating: false, count: old.count)
        for position in 0..<cursor {
            seen[position] = true
            var entry = old[position]
            let name = oldName(position)
            entry.nameStart = UInt32(names.count)
            names += name
            names.append(0)
            entries.append(entry)
        }
    }

    /// The old entry called `name` not seen yet, or -1.
    private mutating func find(_ name: UnsafeRawBufferPointer) -> Int {
        if lookup == nil {
            var table: [Int: [Int]] = [:]
            for position in old.indices { table[DirectoryScan.hash(oldName(position)), default: []].append(position) }
            lookup = table
        }
        for position in lookup?[DirectoryScan.hash(name)] ?? [] where !seen[position] && matches(position, name) {
            return position
        }
        return -1
    }

    /// Puts `entry` into the new listing (at `position` while in place);
    /// returns its position there.
    @discardableResult
    private mutating func keep(_ entry: PollEntry, name: UnsafeRawBufferPointer, at position: Int) -> Int {
        if !rebuilding {
            old[position] = entry
            return position
        }
        var entry = entry
        entry.nameStart = UInt32(names.count)
        entry.nameLength = UInt8(name.count)
        names.append(contentsOf: name)
        names.append(0)
        entries.append(entry)
        return entries.count - 1
    }

    /// An old entry that is not in the new listing (as this position).
    private mutating func drop(_ position: Int) {
        beginRebuild()
        seen[position] = true
    }

    /// `fstatat` of a name from the listing (NUL-terminated where it lies).
    private func fileStatus(_ name: UnsafeRawBufferPointer, _ info: inout stat) -> Bool {
        fstatat(descriptor, name.baseAddress!.assumingMemoryBound(to: CChar.self), &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// One name of the listing; `name` is NUL-terminated where it lies.
    mutating func visit(_ name: UnsafeRawBufferPointer, type: UInt8, inode: UInt64 = 0) {
        let hint: Bool? = type == UInt8(DT_UNKNOWN) ? nil : type == UInt8(DT_DIR)
        var match = -1
        if cursor < old.count, !rebuilding || !seen[cursor], matches(cursor, name) {
            match = cursor
            cursor += 1
        } else {
            beginRebuild()
            match = find(name)
        }
        if rebuilding, match >= 0 { seen[match] = true }
        if match >= 0 {
            existing(match, name, hint: hint)
        } else {
            appearing(name, hint: hint, inode: inode)
        }
    }

    /// A name the snapshot knows (at `position`).
    private mutating func existing(_ position: Int, _ name: UnsafeRawBufferPointer, hint: Bool?) {
        var entry = old[position]
        let wasSkipped = entry.flags.contains(.skipped)
        if wasSkipped, !restate, hint == nil || hint == entry.isDirectory {
            keep(entry, name: name, at: position)
            return
        }
        var info = stat()
        var haveStatus = false
        if restate || wasSkipped {
            let isDirectory: Bool
            if let hint {
                isDirectory = hint
            } else {
                guard fileStatus(name, &info) else { return vanish(position, name) }
                haveStatus = true
                isDirectory = info.st_mode & S_IFMT == S_IFDIR
            }
            let flags = job.decide(item.relative, name, isDirectory: isDirectory)
            if flags.contains(.skipped) {
                // Ignored now: forgotten without a word.
                if !wasSkipped, entry.child >= 0 { job.tree.release(entry.child) }
                keep(PollEntry(nameStart: entry.nameStart, nameLength: entry.nameLength, flags: flags), name: name, at: position)
                return
            }
            if wasSkipped {
                // Watched now: taken as it is, without a word.
                guard haveStatus || fileStatus(name, &info) else { return vanish(position, name) }
                let isDirectory = info.st_mode & S_IFMT == S_IFDIR
                var fresh = PollEntry(nameStart: entry.nameStart, nameLength: entry.nameLength,
                                      flags: isDirectory == flags.contains(.directory) ? flags : job.decide(item.relative, name, isDirectory: isDirectory))
                if fresh.flags.contains(.skipped) {
                    keep(fresh, name: name, at: position)
                    return
                }
                fresh.record(info)
                if isDirectory {
                    fresh.child = job.tree.make(device: UInt64(info.st_dev), inode: fresh.inode, parent: index,
                                                generation: job.generation, baseline: true)
                    mustList.insert(keep(fresh, name: name, at: position))
                } else {
                    keep(fresh, name: name, at: position)
                }
                return
            }
            // Another type is another file: the comparison below finds it.
            if isDirectory == entry.isDirectory { entry.flags = flags }
        }
        guard haveStatus || fileStatus(name, &info) else { return vanish(position, name) }
        let isDirectory = info.st_mode & S_IFMT == S_IFDIR
        let sameDevice = !isDirectory || entry.child < 0 || job.tree[entry.child].device == UInt64(info.st_dev)
        if isDirectory != entry.isDirectory || UInt64(info.st_ino) != entry.inode || !sameDevice {
            // Another file under the same name.
            if entry.flags.contains(.ignoreFile) { rulesChanged = true }
            vanished.append((entry, Array(name), true))
            var fresh = PollEntry(nameStart: entry.nameStart, nameLength: entry.nameLength,
                                  flags: job.decide(item.relative, name, isDirectory: isDirectory))
            fresh.record(info)
            if fresh.flags.contains(.skipped) {
                fresh = PollEntry(nameStart: entry.nameStart, nameLength: entry.nameLength, flags: fresh.flags)
                keep(fresh, name: name, at: position)
                return
            }
            let kept = keep(fresh, name: name, at: position)
            appeared.append((kept, UInt64(info.st_dev), true))
            return
        }
        let modified = PollEntry.nanoseconds(info.st_mtim)
        let changed = PollEntry.nanoseconds(info.st_ctim)
        let contentChanged = modified != entry.modified || (!isDirectory && Int64(info.st_size) != entry.size)
        let metadataChanged = UInt16(truncatingIfNeeded: info.st_mode) != entry.mode || changed != entry.changed
        if entry.flags.contains(.ignoreFile), contentChanged || metadataChanged { rulesChanged = true }
        if !baseline, entry.flags.contains(.reported), isDirectory || job.held.isEmpty || !job.held.contains(path(name)) {
            if !isDirectory, contentChanged {
                immediate.append(PollChanges.event(path(name), .modified))
            } else if !isDirectory ? metadataChanged : (UInt16(truncatingIfNeeded: info.st_mode) != entry.mode || (metadataChanged && !contentChanged)) {
                immediate.append(PollChanges.event(path(name), .attributes, isDirectory: isDirectory))
            }
        }
        entry.record(info)
        let kept = keep(entry, name: name, at: position)
        // Names may have come or gone, or may yet within the same clock tick.
        if isDirectory, contentChanged || metadataChanged || max(modified, changed) >= job.recentSince {
            mustList.insert(kept)
        }
    }

    /// A name the snapshot does not know.
    private mutating func appearing(_ name: UnsafeRawBufferPointer, hint: Bool?, inode: UInt64) {
        var info = stat()
        var haveStatus = false
        let isDirectory: Bool
        if let hint {
            isDirectory = hint
        } else {
            guard fileStatus(name, &info) else { return }
            haveStatus = true
            isDirectory = info.st_mode & S_IFMT == S_IFDIR
        }
        var flags = job.decide(item.relative, name, isDirectory: isDirectory)
        if flags.contains(.skipped) {
            // Its inode (from the listing, no `stat`) tells whether a
            // reported file was just renamed to this name.
            if inode != 0 { skippedArrivals.insert(inode) }
            keep(PollEntry(nameStart: 0, nameLength: 0, flags: flags), name: name, at: -1)
            return
        }
        guard haveStatus || fileStatus(name, &info) else { return }
        if (info.st_mode & S_IFMT == S_IFDIR) != isDirectory {
            flags = job.decide(item.relative, name, isDirectory: !isDirectory)
            if flags.contains(.skipped) {
                keep(PollEntry(nameStart: 0, nameLength: 0, flags: flags), name: name, at: -1)
                return
            }
        }
        if flags.contains(.ignoreFile) { rulesChanged = true }
        var entry = PollEntry(nameStart: 0, nameLength: 0, flags: flags)
        entry.record(info)
        if baseline, entry.isDirectory {
            entry.child = job.tree.make(device: UInt64(info.st_dev), inode: entry.inode, parent: index,
                                        generation: job.generation, baseline: true)
        }
        let position = keep(entry, name: name, at: -1)
        if entry.isDirectory { mustList.insert(position) }
        if !baseline { appeared.append((position, UInt64(info.st_dev), false)) }
    }

    /// An old entry whose name is gone (it vanished between the listing and its `stat`).
    private mutating func vanish(_ position: Int, _ name: UnsafeRawBufferPointer) {
        drop(position)
        vanished.append((old[position], Array(name), false))
    }

    /// `directory/name`, absolute, as bytes.
    private func path(_ name: some Collection<UInt8>) -> [UInt8] {
        var path = Array(item.path.dropLast())
        if path != [UInt8(ascii: "/")] { path.append(UInt8(ascii: "/")) }
        path.append(contentsOf: name)
        return path
    }

    /// Ends the listing: settles what vanished and appeared (directories
    /// that moved keep their snapshots), stores the new snapshot, hands out
    /// the immediate events and queues the directories below.
    mutating func finish(_ changes: inout PollChanges, _ stack: inout [Pending]) {
        if !rebuilding {
            if cursor < old.count {
                for position in cursor..<old.count {
                    vanished.append((old[position], Array(oldName(position)), false))
                }
                old.removeSubrange(cursor...)
            }
            entries = old
            names = oldNames
        } else {
            for position in old.indices where !seen[position] {
                vanished.append((old[position], Array(oldName(position)), false))
            }
            // Stored at their size: a pass over a large tree rebuilds many.
            entries = entries.withUnsafeBufferPointer { Array($0) }
            names = names.withUnsafeBufferPointer { Array($0) }
        }
        old = []
        oldNames = []

        // What vanished: files wait for the pass's end; directories too, in
        // case they turn up elsewhere.
        for (entry, name, replaced) in vanished where !entry.flags.contains(.skipped) {
            if entry.flags.contains(.ignoreFile) { rulesChanged = true }
            let where_ = path(name)
            if entry.isDirectory {
                if entry.child >= 0 {
                    let child = job.tree[entry.child]
                    job.tree[entry.child].parent = -1
                    let identity = PollTree.Identity(device: child.device, inode: child.inode)
                    job.vanishedDirectories[identity] = .init(index: entry.child, path: where_,
                                                              reported: entry.flags.contains(.reported))
                } else if entry.flags.contains(.reported) {
                    changes.direct.append(PollChanges.event(where_, .deleted, isDirectory: true))
                }
            } else if !replaced, skippedArrivals.contains(entry.inode), entry.flags.contains(.reported) {
                // Renamed to a name nobody reports: an editor's save begins.
                changes.renamedAway.append(PollChanges.event(where_, .movedFrom, cookie: PollChanges.nextCookie()))
            } else {
                changes.vanished.append(PollChanges.Item(
                    path: where_, identity: .init(device: device, inode: entry.inode), size: entry.size,
                    modified: entry.modified, isDirectory: false, reported: entry.flags.contains(.reported),
                    replaced: replaced))
            }
        }

        // What appeared: directories are followed if they moved, else made.
        for (position, onDevice, replaced) in appeared {
            let entry = entries[position]
            let name = names[Int(entry.nameStart)..<Int(entry.nameStart) + Int(entry.nameLength)]
            let where_ = path(name)
            let reported = entry.flags.contains(.reported)
            guard entry.isDirectory else {
                changes.appeared.append(PollChanges.Item(
                    path: where_, identity: .init(device: onDevice, inode: entry.inode), size: entry.size,
                    modified: entry.modified, isDirectory: false, reported: reported, replaced: replaced, holdable: true))
                continue
            }
            let identity = PollTree.Identity(device: onDevice, inode: entry.inode)
            if let moved = job.vanishedDirectories.removeValue(forKey: identity) {
                adopt(moved.index, at: position)
                changes.directoryMoves.append(.init(from: moved.path, to: where_, fromReported: moved.reported, toReported: reported))
            } else if let elsewhere = movedFromAPlaceNotScannedYet(identity) {
                adopt(elsewhere.index, at: position)
                changes.directoryMoves.append(.init(from: elsewhere.path, to: where_, fromReported: elsewhere.reported, toReported: reported))
            } else {
                entries[position].child = job.tree.make(device: onDevice, inode: entry.inode, parent: index,
                                                        generation: job.generation, baseline: false)
                changes.appeared.append(PollChanges.Item(
                    path: where_, identity: identity, size: 0, modified: 0, isDirectory: true,
                    reported: reported, replaced: replaced))
            }
            mustList.insert(position)
        }

        var hasIgnoreFile = false
        for position in entries.indices {
            let entry = entries[position]
            if entry.flags.contains(.ignoreFile) { hasIgnoreFile = true }
            guard entry.child >= 0, !entry.flags.contains(.skipped) else { continue }
            let name = names[Int(entry.nameStart)..<Int(entry.nameStart) + Int(entry.nameLength)]
            let childPath = path(name) + [0]
            stack.append(Pending(index: entry.child, path: childPath, relativeStart: item.relative.isEmpty ? childPath.count - 1 - name.count : item.relativeStart,
                                 mustList: mustList.contains(position), isTop: false))
        }
        job.tree[index].entries = entries
        job.tree[index].names = names
        job.tree[index].hasIgnoreFile = hasIgnoreFile
        if rulesChanged, job.filter.readsDirectoryRuleFiles {
            // An ignore file changed after the check at the start: its rules
            // apply from the next pass on.
            job.filter.loadDirectory(FilePath(bytes: item.relative), at: FilePath(bytes: item.path.dropLast()))
            job.rulesChanged = true
            job.bumpGeneration()
        }
        if !immediate.isEmpty { job.output(.events(immediate)) }
    }

    /// Makes the snapshot `child` (a directory that moved) the one at `position`.
    private mutating func adopt(_ child: Int32, at position: Int) {
        job.tree[child].parent = index
        entries[position].child = child
        // Its paths changed: the filter decides its entries again, silently.
        job.tree.invalidate(child)
    }

    /// A directory with this identity still in the snapshot at a place this
    /// pass has not reached, which no longer holds it: it moved here.
    private func movedFromAPlaceNotScannedYet(_ identity: PollTree.Identity) -> PollJob.VanishedDirectory? {
        guard let candidate = job.tree.byIdentity[identity], candidate != index,
              job.tree[candidate].parent >= 0, let oldPath = snapshotPath(of: candidate)
        else { return nil }
        var info = stat()
        let stillThere = (oldPath + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) == 0 }
        } && UInt64(info.st_ino) == identity.inode && UInt64(info.st_dev) == identity.device
        guard !stillThere else { return nil }
        let parent = job.tree[candidate].parent
        let reported = job.tree[parent].entries.first { $0.child == candidate }?.flags.contains(.reported) ?? false
        job.tree.detach(candidate)
        return .init(index: candidate, path: oldPath, reported: reported)
    }

    /// The absolute path the snapshot gives directory `node`; the directory
    /// being scanned has its listing here, not in the tree.
    private func snapshotPath(of node: Int32) -> [UInt8]? {
        var components: [[UInt8]] = []
        var current = node
        while true {
            if current == index {
                var path = Array(item.path.dropLast())
                for component in components.reversed() { path += [UInt8(ascii: "/")] + component }
                return path
            }
            let parent = job.tree[current].parent
            if parent < 0 {
                guard let top = job.subtrees.first(where: { $0.top == current }) else { return nil }
                var path = top.path
                for component in components.reversed() { path += [UInt8(ascii: "/")] + component }
                return path
            }
            if parent == index {
                guard let entry = entries.first(where: { $0.child == current }) else { return nil }
                components.append(Array(names[Int(entry.nameStart)..<Int(entry.nameStart) + Int(entry.nameLength)]))
            } else {
                let directory = job.tree[parent]
                guard let entry = directory.entries.first(where: { $0.child == current }) else { return nil }
                components.append(Array(directory.name(entry)))
            }
            current = parent
        }
    }
}
