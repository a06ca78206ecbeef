import Glibc
import SystemPackage

/// The polled part of one watched root of one subscription: one or more
/// subtrees (the whole root, a network mount inside it, or directories
/// that found no inotify watch), with their snapshots and the filter of
/// that root. Made on the reader thread, then touched only by the poll
/// thread (`PollScanner`).
final class PollJob: @unchecked Sendable {
    // Safety: handed over through `PollScanner`'s locked command queue; only
    // the poll thread touches it afterwards.

    struct Subtree {
        /// Below the client's root, as bytes; empty for the root itself.
        var relative: [UInt8]
        /// Absolute, as bytes.
        var path: [UInt8]
        /// A watched single file rather than a directory tree.
        var isFile: Bool
        /// The top directory's snapshot; -1 before the first scan and while missing.
        var top: Int32 = -1
        /// A single file's last state.
        var file: PollEntry? = nil
        /// Since when a single file has been missing (an editor's save may be under way).
        var missingSince: Double? = nil
        /// Whether the first scan reports what it finds (`created`): a
        /// directory that just appeared, rather than one watched from the start.
        var reportsFirstScan: Bool
        /// The subtree was seen at least once.
        var seen = false

        init(relative: [UInt8], path: [UInt8], isFile: Bool = false, reportsFirstScan: Bool = false) {
            self.relative = relative
            self.path = path
            self.isFile = isFile
            self.reportsFirstScan = reportsFirstScan
        }

        var isClientRoot: Bool { relative.isEmpty }
    }

    /// A directory waiting to be scanned in the current pass.
    struct Pending {
        var index: Int32
        /// Absolute, NUL-terminated.
        var path: [UInt8]
        /// Where in `path` the part below the client's root begins.
        var relativeStart: Int
        /// Its listing must be read: it is new, or its times changed or are
        /// too recent to tell (names may have come or gone).
        var mustList: Bool
        var isTop: Bool

        /// The directory below the client's root ("" for the root).
        var relative: ArraySlice<UInt8> { path[relativeStart..<(path.count - 1)] }
    }

    let id: Int
    let clientID: Int
    let rootIndex: Int
    /// The client's root, absolute, as bytes.
    let rootPath: [UInt8]
    let interval: Duration
    var filter: PathFilter
    /// For a root polled whole, the filter's rule files outside the tree:
    /// checked before each pass, so that a rule written before a change is
    /// applied to it (inotify, for the rest, keeps order by itself).
    var followed: FollowedFiles
    var generation: UInt32 = 0
    var tree = PollTree()
    var subtrees: [Subtree]
    /// When the next pass is due (CLOCK_MONOTONIC, nanoseconds).
    var nextDue: UInt64 = 0
    /// Released once the first pass has taken the baseline.
    var gate: ArmGate?
    /// The client's root is gone (reported), waiting to come back.
    var rootGone = false
    /// Whether each device's directory times can be trusted (`trustsDirectoryTimes`).
    var localDevices: [UInt64: Bool] = [:]
    /// Times at or after this (nanoseconds since the epoch) are too recent
    /// to prove that a directory's names did not change: a second before
    /// the pass under way began.
    var recentSince: Int64 = 0
    /// Directories that vanished in the pass under way, by identity: kept
    /// until the pass ends, in case they turn up under another name.
    var vanishedDirectories: [PollTree.Identity: VanishedDirectory] = [:]

    struct VanishedDirectory {
        var index: Int32
        var path: [UInt8]
        var reported: Bool
    }
    /// Where its changes go: the subscription's sink, shared with the inotify reader.
    let sink: EventSink
    /// Editors' saves made whole, for what this job finds (a reported file
    /// renamed to an ignored name and written again is one `modified`).
    var coalescer: SaveCoalescer

    /// What a job tells the inotify reader, which keeps the client.
    enum Notice: Sendable {
        /// The client's root (directory or single file) is gone; its
        /// deletions went out before. The job keeps looking for it to come back.
        case rootMissing
        /// A rule file or git's index changed: what git tracks among the
        /// paths its rules ignore is to be learned again.
        case rulesChanged
    }

    /// A single file that vanished is declared deleted only after this long
    /// (an editor's rename-and-write may be under way), like `SaveCoalescer`.
    static let fileGraceSeconds = 1.0

    init(id: Int, clientID: Int, rootIndex: Int, rootPath: FilePath, interval: Duration, filter: PathFilter,
         followed: FollowedFiles = FollowedFiles([]), subtrees: [Subtree], gate: ArmGate?,
         sink: EventSink, coalescesSaves: Bool = true)
    {
        self.followed = followed
        self.id = id
        self.clientID = clientID
        self.rootIndex = rootIndex
        self.rootPath = rootPath.bytes
        self.interval = interval
        self.filter = filter
        self.subtrees = subtrees
        self.gate = gate
        self.sink = sink
        coalescer = SaveCoalescer(holds: coalescesSaves)
    }

    /// The absolute path of `relative` below the client's root.
    func absolute(_ relative: [UInt8]) -> [UInt8] {
        if relative.isEmpty { return rootPath }
        return rootPath == [UInt8(ascii: "/")] ? rootPath + relative : rootPath + [UInt8(ascii: "/")] + relative
    }

    // MARK: Passes

    /// Scans every subtree once and hands out what changed.
    func pass() {
        recentSince = Int64((Clocks.wall() - 1) * 1e9)
        if !followed.isEmpty { followRuleFiles() }
        var changes = PollChanges()
        var index = 0
        while index < subtrees.count {
            if scan(subtree: index, &changes) {
                index += 1
            } else {
                subtrees.remove(at: index)
            }
        }
        reloadIgnoreFiles = false
        if rulesChanged {
            rulesChanged = false
            if filter.gitDirectory != nil { notify(.rulesChanged) }
        }
        // What vanished and did not turn up elsewhere was deleted.
        for (_, gone) in vanishedDirectories {
            deleteTree(gone.index, at: gone.path, &changes)
            if gone.reported { changes.direct.append(PollChanges.event(gone.path, .deleted, isDirectory: true)) }
        }
        vanishedDirectories.removeAll()
        // Emptied a pass ago and not written since: the change was that.
        for path in emptied where PollJob.exists(path) { changes.direct.append(PollChanges.event(path, .modified)) }
        emptied = emptiedNow
        emptiedNow = []
        flush(&changes)
        if let gate {
            self.gate = nil
            gate.release()
        }
    }

    /// Scans subtree `index`; false when it is gone for good (a subtree
    /// other than the client's root whose directory vanished: the backend
    /// that watches its parent reports that).
    private func scan(subtree index: Int, _ changes: inout PollChanges) -> Bool {
        if subtrees[index].isFile { return checkFile(index, &changes) }
        var subtree = subtrees[index]
        defer { subtrees[index] = subtree }
        let path = subtree.path + [0]
        if subtree.top < 0 {
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                if subtree.isClientRoot { rootVanished(&subtree, &changes) }
                return subtree.isClientRoot || !subtree.seen
            }
            let reappeared = subtree.isClientRoot && rootGone
            let reports = subtree.reportsFirstScan || reappeared
            if reappeared {
                rootGone = false
                changes.appeared.append(PollChanges.Item(
                    path: subtree.path, identity: .init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)),
                    size: 0, modified: 0, isDirectory: true, reported: true, replaced: false))
            }
            subtree.top = tree.make(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), parent: -1,
                                    generation: generation, baseline: !reports)
            subtree.reportsFirstScan = false
            subtree.seen = true
            subtrees[index] = subtree
        }
        var stack = [Pending(index: subtree.top, path: path, relativeStart: path.count - 1 - subtree.relative.count,
                             mustList: true, isTop: true)]
        while let next = stack.popLast() {
            let opened = scanDirectory(next, &changes, &stack)
            if !opened && next.isTop {
                // The subtree's own directory is gone.
                deleteTree(subtree.top, at: subtree.path, &changes)
                subtree.top = -1
                if subtree.isClientRoot {
                    rootVanished(&subtree, &changes)
                    return true
                }
                return false
            }
        }
        return true
    }

    /// The client's root directory vanished: report it once, then wait.
    private func rootVanished(_ subtree: inout Subtree, _ changes: inout PollChanges) {
        guard subtree.seen, !rootGone else { return }
        rootGone = true
        changes.direct.append(PollChanges.event(subtree.path, .deleted, isDirectory: true))
        flush(&changes)
        notify(.rootMissing)
    }

    /// Hands out what `changes` holds now (at the end of a pass, or
    /// before a `rootMissing`, which may end the client): new files are
    /// held back for the save window (`NewFileHold`), then announced if
    /// they are still there.
    private func flush(_ changes: inout PollChanges) {
        // Renamed to an ignored name before it was announced: it never was.
        let renamedAway = changes.renamedAway.filter { !held.contains($0.path.bytes) }
        for event in changes.renamedAway where held.contains(event.path.bytes) { held.remove(event.path.bytes) }
        if !renamedAway.isEmpty { holdRenamedAway(renamedAway) }
        let outcome = changes.settle(held: held.paths)
        changes = PollChanges()
        let due = held.settle(released: outcome.released, new: outcome.held, now: Clocks.monotonic(), window: coalescer.freshWindow)
        var events = due.filter(PollJob.exists).map { PollChanges.event($0, .created) }
        events += outcome.events
        if !events.isEmpty { deliver(events) }
    }

    /// Whether `path` (absolute, bytes) names something now.
    private static func exists(_ path: [UInt8]) -> Bool {
        var info = stat()
        return (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) == 0 }
        }
    }

    /// A watched single file: compared by `stat` (following a symbolic
    /// link, as the root was named).
    private func checkFile(_ index: Int, _ changes: inout PollChanges) -> Bool {
        var info = stat()
        let exists = stat(subtrees[index].path + [0], &info) == 0
        let path = subtrees[index].path
        guard exists else {
            guard subtrees[index].file != nil else { return true }
            let now = Clocks.monotonic()
            let since = subtrees[index].missingSince ?? now
            subtrees[index].missingSince = since
            if now - since >= PollJob.fileGraceSeconds {
                subtrees[index].file = nil
                subtrees[index].missingSince = nil
                rootGone = true
                changes.direct.append(PollChanges.event(path, .deleted))
                flush(&changes)
                notify(.rootMissing)
            }
            return true
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
            return true
        }
        if old.inode != entry.inode || old.size != entry.size || old.modified != entry.modified {
            changes.direct.append(PollChanges.event(path, .modified))
        } else if old.changed != entry.changed || old.mode != entry.mode {
            changes.direct.append(PollChanges.event(path, .attributes))
        }
        return true
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

    /// Re-reads the rule files outside the tree that changed since the
    /// last pass; when one decides anything, every directory decides its
    /// entries again (silently), from this pass on.
    private func followRuleFiles() {
        var decides = false
        for path in followed.changed() {
            rulesChanged = true
            if filter.ruleFileChanged(path) != nil { decides = true }
        }
        if decides { bumpGeneration() }
    }

    /// Takes what git tracks anew (`TrackedFiles`): when that changes what
    /// the filter keeps, every directory decides its entries again.
    func replaceTracked(_ files: TrackedFiles) {
        if filter.setTracked(files) { bumpGeneration() }
    }

    // MARK: Delivery

    /// Sends what a pass found, through the save coalescer. A pass sees
    /// what is already there: nothing to wait for.
    func deliver(_ events: [FileEvent]) {
        let now = Clocks.monotonic()
        var out: [FileEvent] = []
        for event in events { out += coalescer.pass(event, now: now, origin: .scan) }
        sink.send(out)
    }

    /// Reported files renamed to ignored names: held by the save coalescer,
    /// as an editor's save may be starting.
    private func holdRenamedAway(_ events: [FileEvent]) {
        let now = Clocks.monotonic()
        var out: [FileEvent] = []
        for event in events { out += coalescer.hold(event, now: now) }
        sink.send(out)
    }

    /// Sends what the save coalescer holds that is due at `now` (monotonic).
    func expire(at now: Double) {
        guard let deadline = coalescer.nextDeadline, deadline <= now else { return }
        sink.send(coalescer.expire(now: now))
    }

    private func notify(_ notice: Notice) {
        InotifyReader.shared.pollNotice(client: clientID, job: id, notice)
    }

    /// Set by `replace(_:)`: the next pass re-reads every directory's ignore files.
    var reloadIgnoreFiles = false
    /// A rule file (or git's index) changed during the pass under way.
    var rulesChanged = false
    /// New files found and not announced yet (`NewFileHold`).
    var held = NewFileHold()
    /// Reported files the last pass found changed and empty (absolute
    /// paths): a rewrite in place may have been caught half done, between
    /// its truncation and its write. Their `modified` waits a pass: written
    /// by then, the two are one change; if not, it goes out at that pass's end.
    var emptied: Set<[UInt8]> = []
    /// The files this pass found emptied, for the next.
    var emptiedNow: Set<[UInt8]> = []
}
