import Glibc
import SystemPackage

/// The scan of one directory in progress: the snapshot taken out of the
/// tree (so it is mutated in place, not copied), the new listing, and what
/// appeared and vanished in it.
struct DirectoryScan<System: PollSystem> {
    let machine: PollMachine
    let system: System
    let item: Pending
    let descriptor: Int32
    let index: Int32
    let device: UInt64
    let baseline: Bool
    var restate: Bool
    /// Rules read from this directory's ignore files changed during the scan.
    var rulesChanged = false

    /// The snapshot; while `rebuilding` is false, updated in place.
    var old: [PollEntry]
    var oldNames: [UInt8]
    var rebuilding = false
    /// Next old entry expected in step.
    var cursor = 0
    var entries: [PollEntry] = []
    var names: [UInt8] = []
    var seen: [Bool] = []
    var lookup: [Int: [Int]]? = nil

    var immediate: [SaveCoalescer.Observation] = []
    /// Positions (in the final listing) of what appeared, with the device it is on.
    var appeared: [(position: Int, device: UInt64, replaced: Bool)] = []
    var vanished: [(entry: PollEntry, name: [UInt8], replaced: Bool)] = []
    /// Inodes of ignored names that appeared: a reported file that vanished
    /// with one of these was renamed to an ignored name (an editor's backup).
    var skippedArrivals: Set<UInt64> = []
    /// Positions of directories whose listing must be read (new, changed, or changed lately).
    var mustList: Set<Int> = []

    typealias Pending = PollMachine.Pending

    init(machine: PollMachine, system: System, item: Pending, descriptor: Int32) {
        self.machine = machine
        self.system = system
        self.item = item
        self.descriptor = descriptor
        index = item.index
        device = machine.tree[index].device
        baseline = machine.tree[index].baseline
        restate = machine.tree[index].generation != machine.generation
        machine.tree[index].baseline = false
        // Ignore files first: their rules decide the other names.
        if machine.filter.readsDirectoryRuleFiles {
            let directory = machine.tree[index]
            let recheck = item.mustList || directory.hasIgnoreFile
            if (machine.reloadIgnoreFiles && directory.hasIgnoreFile) || (recheck && machine.ignoreFilesChanged(descriptor, index, system)) {
                machine.filter.loadDirectory(FilePath(bytes: item.relative), at: FilePath(bytes: item.path.dropLast()))
                machine.rulesChanged = true
                if !machine.reloadIgnoreFiles { machine.bumpGeneration() }
                restate = true
            }
        }
        machine.tree[index].generation = machine.generation
        old = machine.tree[index].entries
        oldNames = machine.tree[index].names
        machine.tree[index].entries = []
        machine.tree[index].names = []
    }

    var oldCount: Int { old.count }

    /// Where the name of old entry `position` lies in `oldNames`, and whether it is a directory.
    func nameOfOld(_ position: Int) -> (start: Int, length: Int, isDirectory: Bool) {
        let entry = old[position]
        return (Int(entry.nameStart), Int(entry.nameLength), entry.isDirectory)
    }

    func oldName(_ position: Int) -> ArraySlice<UInt8> {
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
        system.status(at: descriptor, name.baseAddress!.assumingMemoryBound(to: CChar.self), &info)
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
        var status: stat? = nil
        if restate || wasSkipped {
            guard decideAgain(&entry, position, name, hint: hint, status: &status) else { return }
        }
        if status == nil {
            var info = stat()
            guard fileStatus(name, &info) else { return vanish(position, name) }
            status = info
        }
        compare(entry, position, name, status!)
    }

    /// The rules changed since the last pass, or the name was ignored:
    /// the filter decides it again (`status` gets what a `stat` needed for
    /// that found). False when that settled the name: ignored now, watched
    /// now after being ignored, or gone.
    private mutating func decideAgain(_ entry: inout PollEntry, _ position: Int, _ name: UnsafeRawBufferPointer, hint: Bool?,
                                      status: inout stat?) -> Bool {
        let wasSkipped = entry.flags.contains(.skipped)
        let isDirectory: Bool
        if let hint {
            isDirectory = hint
        } else {
            var info = stat()
            guard fileStatus(name, &info) else {
                vanish(position, name)
                return false
            }
            status = info
            isDirectory = info.st_mode & S_IFMT == S_IFDIR
        }
        let flags = machine.decide(item.relative, name, isDirectory: isDirectory)
        if flags.contains(.skipped) {
            // Ignored now: forgotten without a word.
            if !wasSkipped, entry.child >= 0 { machine.tree.release(entry.child) }
            keep(PollEntry(nameStart: entry.nameStart, nameLength: entry.nameLength, flags: flags), name: name, at: position)
            return false
        }
        if wasSkipped {
            unskipped(entry, position, name, flags: flags, status: status)
            return false
        }
        // Another type is another file: the comparison finds it.
        if isDirectory == entry.isDirectory { entry.flags = flags }
        return true
    }

    /// A name ignored until now that is watched now: taken as it is, without a word.
    private mutating func unskipped(_ entry: PollEntry, _ position: Int, _ name: UnsafeRawBufferPointer, flags: PollEntry.Flags,
                                    status: stat?) {
        var info = status ?? stat()
        guard status != nil || fileStatus(name, &info) else { return vanish(position, name) }
        let isDirectory = info.st_mode & S_IFMT == S_IFDIR
        var fresh = PollEntry(nameStart: entry.nameStart, nameLength: entry.nameLength,
                              flags: isDirectory == flags.contains(.directory) ? flags : machine.decide(item.relative, name, isDirectory: isDirectory))
        if fresh.flags.contains(.skipped) {
            keep(fresh, name: name, at: position)
            return
        }
        fresh.record(info)
        if isDirectory {
            fresh.child = machine.tree.make(device: UInt64(info.st_dev), inode: fresh.inode, parent: index,
                                            generation: machine.generation, baseline: true)
            mustList.insert(keep(fresh, name: name, at: position))
        } else {
            keep(fresh, name: name, at: position)
        }
    }

    /// Compares a known name's snapshot with what `stat` says of it now.
    private mutating func compare(_ entry: PollEntry, _ position: Int, _ name: UnsafeRawBufferPointer, _ info: stat) {
        var entry = entry
        let isDirectory = info.st_mode & S_IFMT == S_IFDIR
        let sameDevice = !isDirectory || entry.child < 0 || machine.tree[entry.child].device == UInt64(info.st_dev)
        if isDirectory != entry.isDirectory || UInt64(info.st_ino) != entry.inode || !sameDevice {
            return replaced(entry, position, name, info)
        }
        let modified = PollEntry.nanoseconds(info.st_mtim)
        let changed = PollEntry.nanoseconds(info.st_ctim)
        let contentChanged = modified != entry.modified || (!isDirectory && Int64(info.st_size) != entry.size)
        let metadataChanged = UInt16(truncatingIfNeeded: info.st_mode) != entry.mode || changed != entry.changed
        if entry.flags.contains(.ignoreFile), contentChanged || metadataChanged { rulesChanged = true }
        if !baseline, entry.flags.contains(.reported) {
            if !isDirectory, contentChanged {
                reportWrite(path(name), isEmpty: info.st_size == 0)
            } else if !isDirectory ? metadataChanged : (UInt16(truncatingIfNeeded: info.st_mode) != entry.mode || (metadataChanged && !contentChanged)) {
                immediate.append(.event(PollChanges.event(path(name), .attributes, isDirectory: isDirectory), .look))
            }
        }
        entry.record(info)
        let kept = keep(entry, name: name, at: position)
        // Names may have come or gone, or may yet within the same clock tick.
        if isDirectory, contentChanged || metadataChanged || max(modified, changed) >= machine.recentSince {
            mustList.insert(kept)
        }
    }

    /// A reported file whose content changed. Found empty, it may be a
    /// rewrite in place caught between its truncation and its write (vim's
    /// and gofmt's saves, a shell's `>`): the save rule holds it for a
    /// later pass, which makes the write part of it (`Origin.lookEmptied`).
    private mutating func reportWrite(_ path: [UInt8], isEmpty: Bool) {
        immediate.append(.event(PollChanges.event(path, .modified), isEmpty ? .lookEmptied : .look))
    }

    /// Another file under a known name: the old one vanished, the new one appeared.
    private mutating func replaced(_ entry: PollEntry, _ position: Int, _ name: UnsafeRawBufferPointer, _ info: stat) {
        let isDirectory = info.st_mode & S_IFMT == S_IFDIR
        if entry.flags.contains(.ignoreFile) { rulesChanged = true }
        vanished.append((entry, Array(name), true))
        var fresh = PollEntry(nameStart: entry.nameStart, nameLength: entry.nameLength,
                              flags: machine.decide(item.relative, name, isDirectory: isDirectory))
        fresh.record(info)
        if fresh.flags.contains(.skipped) {
            fresh = PollEntry(nameStart: entry.nameStart, nameLength: entry.nameLength, flags: fresh.flags)
            keep(fresh, name: name, at: position)
            return
        }
        let kept = keep(fresh, name: name, at: position)
        appeared.append((kept, UInt64(info.st_dev), true))
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
        var flags = machine.decide(item.relative, name, isDirectory: isDirectory)
        if flags.contains(.skipped) {
            // Its inode (from the listing, no `stat`) tells whether a
            // reported file was just renamed to this name.
            if inode != 0 { skippedArrivals.insert(inode) }
            keep(PollEntry(nameStart: 0, nameLength: 0, flags: flags), name: name, at: -1)
            return
        }
        guard haveStatus || fileStatus(name, &info) else { return }
        if (info.st_mode & S_IFMT == S_IFDIR) != isDirectory {
            flags = machine.decide(item.relative, name, isDirectory: !isDirectory)
            if flags.contains(.skipped) {
                keep(PollEntry(nameStart: 0, nameLength: 0, flags: flags), name: name, at: -1)
                return
            }
        }
        if flags.contains(.ignoreFile) { rulesChanged = true }
        var entry = PollEntry(nameStart: 0, nameLength: 0, flags: flags)
        entry.record(info)
        if baseline, entry.isDirectory {
            entry.child = machine.tree.make(device: UInt64(info.st_dev), inode: entry.inode, parent: index,
                                            generation: machine.generation, baseline: true)
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
    func path(_ name: some Collection<UInt8>) -> [UInt8] {
        var path = Array(item.path.dropLast())
        if path != [UInt8(ascii: "/")] { path.append(UInt8(ascii: "/")) }
        path.append(contentsOf: name)
        return path
    }
}
