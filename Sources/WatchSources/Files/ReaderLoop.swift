import Glibc
import SystemPackage

/// The reader thread's state and loop: commands from subscribers, reading
/// inotify without blocking, and translating inotify records into
/// `FileEvent`s for each client (renames, moves in and out, editor saves).
/// Scanning lives in `ReaderLoop+Scanning`, vanishing roots in
/// `ReaderLoop+Roots`, the polled parts in `ReaderLoop+Polling`, mounts
/// coming and going in `ReaderLoop+Mounts`, the shared watches in
/// `WatchTable`. Created and used on the reader thread only.
final class ReaderLoop {
    struct PendingMove {
        var path: FilePath
        /// The watched directory it left.
        var directory: FilePath
        var isDirectory: Bool
        var cookie: UInt32
    }

    enum WalkMode {
        case silent
        case reportAll
        case reportChangedSince(Double)

        /// Whether what the walk finds is reported as created.
        var reportsAll: Bool {
            if case .reportAll = self { return true }
            return false
        }

        /// Whether the walk looks at files at all (a silent one only
        /// descends into directories).
        var reportsFiles: Bool {
            if case .silent = self { return false }
            return true
        }
    }

    let reader: InotifyReader
    var clients: [WatchClient] = []
    var table = WatchTable()
    var pendingMoves: [PendingMove] = []
    /// Paths a scan just reported; their own create events, read later, are duplicates.
    var scanned = PathSet()
    /// The directory of the last event, reused while events come from it.
    var lastDirectory: FilePath? = nil
    /// When the kernel queue was last seen empty: an overflow lost only changes after it.
    var lastIdle = FileSystem.now()
    /// Why libinotifytools could not start; then nothing calls it.
    var startError: FileWatchError? = nil
    /// `/proc/self/mountinfo`, open while a client chooses backends by
    /// mount: it polls with `POLLPRI` when a mount comes or goes.
    var mountWatch: Int32 = -1
    var mountsMoved = false
    /// `WatchSeams.readRenameHalvesApart`: the next read is to come back empty.
    var emptyReadOwed = false
    /// Where records are read from the inotify fd.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)

    init(reader: InotifyReader) {
        self.reader = reader
    }

    deinit {
        readBuffer.deallocate()
    }

    func run() {
        startLibrary()
        var commandsPending = true
        while true {
            if commandsPending {
                for command in reader.takeCommands() { execute(command) }
                flush()
            }
            if clients.isEmpty {
                // The inotify instance stays open, empty (one fd): closed,
                // another process could take the last of the user's
                // instances (`fs.inotify.max_user_instances`, 128 by
                // default) and the next watch would be polled, and polling
                // cannot see a same-size rewrite within one timestamp tick.
                // Only a table with watches left over is closed, to start
                // clean.
                if table.count > 0 { stopLibrary() }
                closeMountWatch()
                reader.publish(watchCount: 0)
                if reader.finishIfIdle() { return }
                startLibrary()
                commandsPending = true
                continue
            }
            flushPolling()
            reader.publish(watchCount: table.count)
            commandsPending = wait()
            drain()
            if mountsMoved {
                mountsMoved = false
                mountsChanged()
            }
            expireHeldEvents()
            flush()
        }
    }

    /// Hands every client what the last step brought (one kernel event,
    /// commands, held events released), as one value each.
    func flush() {
        for client in clients { client.flush() }
    }

    func startLibrary() {
        do {
            table.descriptor = try InotifyLibrary.start()
            startError = nil
        } catch {
            table.descriptor = nil
            startError = error
        }
    }

    /// Closes libinotifytools (when it was started), taking every watch with it.
    func stopLibrary() {
        if table.descriptor != nil { InotifyLibrary.stop() }
        table.descriptor = nil
        table.removeAll()
    }

    // MARK: Commands

    func execute(_ command: InotifyReader.Command) {
        switch command {
        case .add(let client, let armed):
            arm(client, gate: armed)
            // What the start reported reaches the subscriber before `subscribe` returns.
            flush()
            armed?.release()
        case .polled(let client, let job, let output):
            polled(client, job, output)
        case .tracked(let client, let found):
            learnedTracked(client, found)
        case .fence(let gate):
            // What the commands before it found is delivered first.
            flush()
            gate.release()
        case .releaseNew(let tops, let then):
            for client in clients where client.roots.contains(where: { root in
                tops.contains { FileSystem.relative(root.path, to: $0) != nil || FileSystem.relative($0, to: root.path) != nil }
            }) {
                deliverChecked(client.coalescer.releaseNew(), to: client)
            }
            flush()
            then()
        case .remove(let id):
            // Read what is queued first: IN_IGNORED records say which watches
            // the kernel already dropped, so they are not removed twice.
            drain()
            if let client = clients.first(where: { $0.id == id }) { drop(client) }
        case .deafen(let root, let done):
            for client in clients where client.roots.first?.path == root {
                client.deafSince = FileSystem.now()
            }
            done.signal()
        case .overflow(let root, let done):
            drain()
            for client in clients where client.roots.first?.path == root {
                let since = client.deafSince ?? lastIdle
                client.deafSince = nil
                overflow(client, since: since)
            }
            flush()
            done.signal()
        case .barrier(let done):
            drain()
            done.signal()
        }
    }

    /// Registers `client` and watches its roots: each with inotify, or
    /// polled as a whole (the backend says so, its mount needs it, or
    /// inotify could not start), or with inotify around polled mounts and
    /// directories that found no watch. Polled parts join `gate`, so the
    /// subscriber waits for their first pass.
    func arm(_ client: WatchClient, gate: ArmGate?) {
        if case .inotify = client.options.backend, let startError { return client.observer.sendError(startError) }
        clients.append(client)
        var mounts: MountTable? = nil
        if case .auto = client.options.backend {
            mounts = MountTable.current()
            openMountWatch()
        }
        for index in client.roots.indices {
            let path = client.roots[index].path
            switch FileSystem.kind(path, follow: true) {
            case .missing:
                return fail(client, FileWatchError(.noSuchPath(path)))
            case .directory:
                break
            case .other:
                client.roots[index].isFile = true
            }
            if let reason = wholeRootPolling(client, index, mounts: mounts) {
                client.roots[index].polledWhole = true
                queuePoll(client, index, path: path, isFile: client.roots[index].isFile, reportsFirstScan: false)
                FileWatcher.announce(WatchNotice(path: path, kind: .polling(interval: client.options.backend.pollInterval, reason: reason)))
                continue
            }
            if let mounts, !client.roots[index].isFile {
                client.roots[index].mountPoints = mounts.mountPoints(under: path)
            }
            do {
                if !client.roots[index].isFile {
                    for directory in client.roots[index].filter.followedDirectories {
                        try table.acquire(directory, for: client, as: .rules)
                    }
                }
                let found = try armRoot(client, index, mode: client.options.reportsExisting ? .reportAll : .silent)
                if client.options.reportsExisting { client.send(found) }
            } catch {
                return fail(client, error)
            }
            FileWatcher.announce(WatchNotice(path: path, kind: .inotify))
        }
        // git was asked beside the walk; what it tracks is watched before the gate opens.
        takeFirstTracked(client)
        flushPolling(client, gate: gate)
    }

    /// Watches root `index` of `client` (its tree, or a file's parent).
    func armRoot(_ client: WatchClient, _ index: Int, mode: WalkMode) throws(FileWatchError) -> [FileEvent] {
        let root = client.roots[index]
        if root.isFile {
            try table.acquire(FileSystem.parent(root.path), for: client, isRoot: true)
            return []
        }
        return try walk(client, index, from: root.path, relative: "", mode: mode)
    }

    func fail(_ client: WatchClient, _ error: FileWatchError) {
        client.flush()
        drop(client)
        client.observer.sendError(error)
    }

    func drop(_ client: WatchClient) {
        client.ended = true
        stopAllPolling(client)
        for path in client.allHeld { table.release(path, kernelDropped: false) }
        client.watched.removeAll()
        client.sentinels.removeAll()
        client.ruleDirectories.removeAll()
        clients.removeAll { $0 === client }
    }

    // MARK: Reading

    /// Blocks until inotify has something, a command arrives (returns true),
    /// a mount comes or goes, or a held event or the duplicate filter is due.
    func wait() -> Bool {
        var timeout: Int32 = -1
        let deadlines = clients.compactMap(\.coalescer.nextDeadline)
        if let next = deadlines.min() {
            timeout = Int32(max(0, min(1000, (next - FileSystem.monotonicNow()) * 1000 + 1)))
        }
        if !scanned.isEmpty { timeout = timeout < 0 ? 200 : min(timeout, 200) }
        var fds = [pollfd(fd: reader.wakeFD, events: Int16(POLLIN), revents: 0)]
        if let descriptor = table.descriptor { fds.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)) }
        if mountWatch >= 0 { fds.append(pollfd(fd: mountWatch, events: Int16(POLLPRI), revents: 0)) }
        let ready = poll(&fds, nfds_t(fds.count), timeout)
        if mountWatch >= 0, fds[fds.count - 1].revents & Int16(POLLPRI | POLLERR) != 0 { mountsMoved = true }
        // Quiet for a moment (or busy for very long): late duplicates are no longer expected.
        if ready == 0 || scanned.count > 200_000 { scanned.removeAll() }
        return ready < 0 || fds[0].revents != 0
    }

    /// How long (ms) a rename's `IN_MOVED_FROM` waits for its `IN_MOVED_TO`
    /// once the queue is empty. The kernel queues the two halves one after
    /// the other inside one `rename(2)`, but not atomically (inotify(7)): a
    /// reader woken by the first can read it alone while the renaming
    /// thread (or its virtual CPU) is held up between the two. Taken for a
    /// move out of the tree, such a rename split an editor's save in two
    /// runs (JetBrains' safe write, vim's backup rename). Costs a move that
    /// really leaves the tree this much latency; nothing else waits.
    static let moveHalfGrace: Int32 = 100

    /// Reads and handles every record queued on the inotify fd. A rename
    /// half read without its other half is resolved only once the queue
    /// has stayed empty for `moveHalfGrace` milliseconds.
    func drain() {
        if let descriptor = table.descriptor {
            // At most one grace per drain, however many records trickle in.
            var graceEnds: UInt64? = nil
            while true {
                let records = WatchSeams.readsApart ? readApart(descriptor) : InotifyLibrary.read(descriptor, into: readBuffer)
                if records.isEmpty {
                    guard !pendingMoves.isEmpty else { break }
                    let now = FileSystem.monotonicNanoseconds()
                    let ends = graceEnds ?? now + UInt64(Self.moveHalfGrace) * 1_000_000
                    graceEnds = ends
                    guard ends > now else { break }
                    var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
                    if poll(&fds, 1, Int32((ends - now + 999_999) / 1_000_000)) > 0 { continue }
                    break
                }
                for record in records {
                    handle(record)
                    flush()
                }
                // A queue that never empties (a writer faster than this
                // thread) must not hold back forever what is due.
                if pendingMoves.isEmpty {
                    expireHeldEvents()
                    flush()
                }
            }
        }
        for move in pendingMoves { movedOut(move) }
        pendingMoves.removeAll()
        flush()
        lastIdle = FileSystem.now()
        runPendingReplans()
    }

    /// Tests (`WatchSeams.readRenameHalvesApart`): reads one record, with
    /// the smallest buffer that holds it (the kernel returns as many whole
    /// records as fit, and `EINVAL` when not even one does); after an
    /// `IN_MOVED_FROM` from a directory the seam names, the next call
    /// returns nothing once.
    func readApart(_ descriptor: Int32) -> [InotifyRecord] {
        if emptyReadOwed {
            emptyReadOwed = false
            return []
        }
        let header = MemoryLayout<inotify_event>.size
        var size = header + 16
        while size <= readBuffer.count {
            let records = InotifyLibrary.read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: readBuffer[0..<size]))
            if records.isEmpty, errno == EINVAL {
                size += 16
                continue
            }
            if let record = records.first, record.has(InotifyRecord.movedFrom),
               let directory = InotifyLibrary.path(of: record.wd), WatchSeams.readsRenamesApart(in: directory) {
                emptyReadOwed = true
            }
            return records
        }
        return []
    }

    func expireHeldEvents() {
        let now = FileSystem.monotonicNow()
        for client in clients where client.coalescer.nextDeadline.map({ $0 <= now }) == true {
            let due = client.coalescer.expire(now: now)
            deliverChecked(due, to: client)
        }
    }

    // MARK: Translation

    func handle(_ record: InotifyRecord) {
        if record.has(InotifyRecord.queueOverflow) {
            for client in clients { overflow(client, since: lastIdle) }
            return
        }
        if record.has(InotifyRecord.ignored) {
            // The kernel dropped this watch (its directory is gone): never remove it again.
            table.markGone(wd: record.wd)
            return
        }
        guard let directory = InotifyLibrary.path(of: record.wd, reusing: lastDirectory), table.contains(directory) else { return }
        lastDirectory = directory
        guard let name = record.name else {
            if record.has(InotifyRecord.deleteSelf | InotifyRecord.moveSelf | InotifyRecord.unmount) {
                directoryVanished(directory, moved: record.has(InotifyRecord.moveSelf))
            }
            return
        }
        let path = FileSystem.join(directory, name)
        let isDirectory = record.has(InotifyRecord.isDirectory)
        // Cheap looks first: most records are of no rule file.
        if PathFilter.isRuleFileName(name) || clients.contains(where: { $0.ruleDirectories.contains(directory) }) {
            ruleFileMayHaveChanged(path)
        }
        if record.has(InotifyRecord.create) {
            if scanned.remove(path) != nil { return }
            rootCandidateAppeared(path)
            if isDirectory {
                directoryAppeared(path, in: directory, kind: .created, cookie: 0)
            } else {
                route(FileEvent(path: path, kind: .created), from: directory, origin: FileSystem.isMadeWhole(path) ? .complete : .kernel)
            }
        } else if record.has(InotifyRecord.movedFrom) {
            scanned.remove(path)
            pendingMoves.append(PendingMove(path: path, directory: directory, isDirectory: isDirectory, cookie: record.cookie))
        } else if record.has(InotifyRecord.movedTo) {
            if let index = pendingMoves.firstIndex(where: { $0.cookie == record.cookie }) {
                let from = pendingMoves.remove(at: index)
                movedWithin(from, to: path, in: directory)
            } else {
                if scanned.remove(path) != nil { return }
                rootCandidateAppeared(path)
                if isDirectory {
                    directoryAppeared(path, in: directory, kind: .movedTo, cookie: record.cookie)
                } else {
                    route(FileEvent(path: path, kind: .movedTo, cookie: record.cookie), from: directory)
                }
            }
        } else if record.has(InotifyRecord.delete) {
            scanned.remove(path)
            if isDirectory { releaseTree(path, kernelDropped: true) }
            route(FileEvent(path: path, kind: .deleted, isDirectory: isDirectory), from: directory, fileRootMayVanish: true)
        } else if record.has(InotifyRecord.modify) {
            route(FileEvent(path: path, kind: .modified, isDirectory: isDirectory), from: directory)
        } else if record.has(InotifyRecord.closeWrite) {
            route(FileEvent(path: path, kind: .closedWrite, isDirectory: isDirectory), from: directory)
        } else if record.has(InotifyRecord.attrib) {
            route(FileEvent(path: path, kind: .attributes, isDirectory: isDirectory), from: directory)
        }
    }

    /// Sends `event`, read from the watch on `directory`, to every client
    /// that reports its path. A watched single file that is deleted is held
    /// briefly: an editor may be re-creating it.
    func route(_ event: FileEvent, from directory: FilePath, fileRootMayVanish: Bool = false, origin: SaveCoalescer.Origin = .kernel) {
        for client in clients where client.deafSince == nil {
            guard client.reports(event.path, in: directory, isDirectory: event.isDirectory) else {
                client.noteDropped(event.path, in: directory, isDirectory: event.isDirectory)
                continue
            }
            if fileRootMayVanish, let index = client.rootIndex(of: event.path), client.roots[index].isFile {
                deliverChecked(client.coalescer.hold(event, now: FileSystem.monotonicNow()), to: client)
            } else {
                deliver([event], to: client, origin: origin)
            }
        }
    }

    /// A rename whose both halves were seen.
    func movedWithin(_ from: PendingMove, to path: FilePath, in directory: FilePath) {
        let cookie = from.cookie
        let watchedBefore = clients.map { client in client.watched.contains(from.path) }
        if from.isDirectory {
            // What was polled there is watched afresh at the new place, below.
            for client in clients where client.deafSince == nil { stopPolling(client, under: from.path) }
        }
        if from.isDirectory { table.rename(from.path, to: path, in: clients.filter { $0.deafSince == nil }) }
        for (position, client) in clients.enumerated() where client.deafSince == nil {
            let fromReported = client.reports(from.path, in: from.directory, isDirectory: from.isDirectory)
            let toReported = client.reports(path, in: directory, isDirectory: from.isDirectory)
            let source = FileEvent(path: from.path, kind: .movedFrom, isDirectory: from.isDirectory, cookie: cookie)
            let target = FileEvent(path: path, kind: .movedTo, isDirectory: from.isDirectory, cookie: cookie)
            guard from.isDirectory else {
                // A temporary file renamed over the real one, a file renamed
                // to a backup name or back: the save coalescer decides.
                deliverChecked(client.coalescer.renamed(from: fromReported ? source : nil, to: toReported ? target : nil,
                                                        now: FileSystem.monotonicNow()), to: client)
                continue
            }
            deliver((fromReported ? [source] : []) + (toReported ? [target] : []), to: client)
            let wants = client.wantsDirectory(path, in: directory)
            if watchedBefore[position], !wants {
                table.releaseTree(path, for: client, kernelDropped: false)
            } else if !watchedBefore[position], wants, let (index, relative) = client.locate(path) {
                do {
                    deliver(try walk(client, index, from: path, relative: relative, mode: .reportAll), to: client, origin: .scan)
                } catch {
                    fail(client, error)
                }
            }
        }
    }

    /// A `movedFrom` whose `movedTo` never came: it left the watched trees.
    func movedOut(_ move: PendingMove) {
        if move.isDirectory { releaseTree(move.path, kernelDropped: false) }
        let event = FileEvent(path: move.path, kind: .movedFrom, isDirectory: move.isDirectory, cookie: move.cookie)
        route(event, from: move.directory, fileRootMayVanish: true)
    }

    /// Delivers through the client's save coalescer.
    func deliver(_ events: [FileEvent], to client: WatchClient, origin: SaveCoalescer.Origin = .kernel) {
        guard !events.isEmpty else { return }
        let now = FileSystem.monotonicNow()
        var out: [FileEvent] = []
        for event in events { out += client.coalescer.pass(event, now: now, origin: origin) }
        deliverChecked(out, to: client)
    }

    /// Sends events, then acts on those that say a watched single file is gone.
    func deliverChecked(_ events: [FileEvent], to client: WatchClient) {
        client.send(events)
        for event in events where event.kind == .deleted || event.kind == .movedFrom {
            if let index = client.rootIndex(of: event.path), client.roots[index].isFile {
                rootLost(client, index, announced: true)
            }
        }
    }

    /// Releases every directory at or below `path`, for every client, and
    /// stops polling what lies there.
    func releaseTree(_ path: FilePath, kernelDropped: Bool) {
        for client in clients where client.deafSince == nil {
            table.releaseTree(path, for: client, kernelDropped: kernelDropped)
            stopPolling(client, under: path)
        }
    }
}
