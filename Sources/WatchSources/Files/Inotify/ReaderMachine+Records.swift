import SystemPackage

/// Reading: inotify records become `FileEvent`s for each client (renames
/// paired, moves in and out, editors' saves through each client's
/// `SaveCoalescer`), and what the queue's emptying and the clock release.
extension ReaderMachine {
    /// What the loop does when the queue is empty.
    enum QueueEmpty {
        /// Poll the queue until then (monotonic seconds): a rename's first
        /// half waits for its second.
        case waitUntil(Double)
        /// Nothing waits: the pending halves were moves out of the tree.
        case settled
    }

    /// Handles records read in one `read(2)`, each as one input (what one
    /// record brings a client arrives as one array). A queue that never
    /// empties (a writer faster than the reader) still releases what is
    /// due: held events, and rename halves read in an earlier read at
    /// least a grace ago whose other half has not come since (moves out).
    mutating func read(_ records: [InotifyRecord], at now: ReaderTime) -> [Action] {
        for record in records {
            handle(record, at: now)
            flush()
        }
        let expired = { (move: PendingMove) in move.readAt + Self.moveHalfGrace <= now.monotonic }
        if pendingMoves.contains(where: expired) {
            let moves = pendingMoves.filter(expired)
            pendingMoves.removeAll(where: expired)
            if pendingMoves.isEmpty { graceEnds = nil }
            for move in moves { movedOut(move, at: now) }
            flush()
        }
        if pendingMoves.isEmpty { expire(at: now) }
        // Busy for very long: late duplicates are no longer expected.
        if scanned.count > 200_000 { scanned.removeAll() }
        return takeActions()
    }

    /// The queue is empty at `now`: a rename half read alone waits out its
    /// grace, then is a move out of the tree; rules changed meanwhile are
    /// applied to what they now watch.
    mutating func queueEmpty(at now: ReaderTime) -> (QueueEmpty, [Action]) {
        if !pendingMoves.isEmpty {
            let ends = graceEnds ?? now.monotonic + Self.moveHalfGrace
            graceEnds = ends
            if ends > now.monotonic { return (.waitUntil(ends), []) }
        }
        graceEnds = nil
        let moves = pendingMoves
        pendingMoves.removeAll()
        for move in moves { movedOut(move, at: now) }
        flush()
        lastIdle = now.wall
        runPendingReplans()
        return (.settled, takeActions())
    }

    /// A held event's time may have come.
    mutating func deadlinePassed(at now: ReaderTime) -> [Action] {
        expire(at: now)
        return takeActions()
    }

    /// Nothing happened for a while: the create records a scan's paths
    /// could still bring have come.
    mutating func quiet() {
        scanned.removeAll()
    }

    /// Releases what the save coalescers hold that is due.
    mutating func expire(at now: ReaderTime) {
        for client in clients where client.coalescer.nextDeadline.map({ $0 <= now.monotonic }) == true {
            deliverChecked(client.coalescer.expire(now: now.monotonic), to: client)
        }
    }

    // MARK: Records

    mutating func handle(_ record: InotifyRecord, at now: ReaderTime) {
        if record.has(InotifyRecord.queueOverflow) {
            for client in clients { overflow(client, since: lastIdle) }
            return
        }
        guard let node = table.node(wd: record.wd), table.isHeld(node) else { return }
        let directory = directoryPath(node)
        if record.has(InotifyRecord.ignored) {
            // The kernel dropped this watch (its directory is gone): never remove it again.
            table.markGone(wd: record.wd)
            return
        }
        guard let name = record.name else {
            if record.has(InotifyRecord.deleteSelf | InotifyRecord.moveSelf | InotifyRecord.unmount) {
                directoryVanished(node, directory, moved: record.has(InotifyRecord.moveSelf))
            }
            return
        }
        let path = FileSystem.join(directory, name)
        // Cheap looks first: most records are of no rule file.
        if PathFilter.isRuleFileName(name) || clients.contains(where: { $0.ruleDirectories.contains(node) }) {
            ruleFileMayHaveChanged(path)
        }
        let at = Located(node: node, directory: directory, path: path, isDirectory: record.has(InotifyRecord.isDirectory))
        handle(record, at, now: now)
    }

    /// Where a record's entry lies.
    struct Located {
        var node: WatchTable.Node
        var directory: FilePath
        var path: FilePath
        var isDirectory: Bool
    }

    /// A record about an entry of a watched directory.
    private mutating func handle(_ record: InotifyRecord, _ at: Located, now: ReaderTime) {
        let (path, isDirectory) = (at.path, at.isDirectory)
        if record.has(InotifyRecord.create) {
            if scanned.remove(path) != nil { return }
            appeared(at, kind: .created, cookie: 0, now: now)
        } else if record.has(InotifyRecord.movedFrom) {
            scanned.remove(path)
            pendingMoves.append(PendingMove(path: path, directory: at.node, directoryPath: at.directory,
                                            isDirectory: isDirectory, cookie: record.cookie, readAt: now.monotonic))
        } else if record.has(InotifyRecord.movedTo) {
            if let index = pendingMoves.firstIndex(where: { $0.cookie == record.cookie }) {
                movedWithin(pendingMoves.remove(at: index), to: at, now: now)
            } else {
                if scanned.remove(path) != nil { return }
                appeared(at, kind: .movedTo, cookie: record.cookie, now: now)
            }
        } else if record.has(InotifyRecord.delete) {
            scanned.remove(path)
            if isDirectory {
                refused.remove(path)
                releaseTree(path, kernelDropped: true)
            }
            route(FileEvent(path: path, kind: .deleted, isDirectory: isDirectory), from: at.node, now: now, fileRootMayVanish: true)
        } else if let kind = Self.changeKind(record) {
            route(FileEvent(path: path, kind: kind, isDirectory: isDirectory), from: at.node, now: now)
            if kind == .attributes, isDirectory, refused.contains(path) { retryRefused(path, in: at.node, now: now) }
        }
    }

    /// A write, a close after writing, or an attribute change.
    private static func changeKind(_ record: InotifyRecord) -> FileEvent.Kind? {
        if record.has(InotifyRecord.modify) { return .modified }
        if record.has(InotifyRecord.closeWrite) { return .closedWrite }
        if record.has(InotifyRecord.attrib) { return .attributes }
        return nil
    }

    /// A name created or moved in (without a known other half).
    private mutating func appeared(_ at: Located, kind: FileEvent.Kind, cookie: UInt32, now: ReaderTime) {
        rootCandidateAppeared(at.path)
        if at.isDirectory {
            directoryAppeared(at.path, in: at.node, kind: kind, cookie: cookie, now: now)
        } else if kind == .created {
            let origin: SaveCoalescer.Origin = system.isMadeWhole(at.path) ? .complete : .kernel
            route(FileEvent(path: at.path, kind: .created), from: at.node, now: now, origin: origin)
        } else {
            route(FileEvent(path: at.path, kind: .movedTo, cookie: cookie), from: at.node, now: now)
        }
    }

    /// Sends `event`, read from the watch on `directory`, to every client
    /// that reports its path. A watched single file that is deleted is held
    /// briefly: an editor may be re-creating it.
    mutating func route(_ event: FileEvent, from directory: WatchTable.Node, now: ReaderTime, fileRootMayVanish: Bool = false,
                        origin: SaveCoalescer.Origin = .kernel) {
        for client in clients {
            guard client.reports(event.path, in: directory, isDirectory: event.isDirectory) else {
                noteDropped(event.path, in: directory, isDirectory: event.isDirectory, by: client)
                continue
            }
            if fileRootMayVanish, let index = client.rootIndex(of: event.path), client.roots[index].isFile {
                deliverChecked(client.coalescer.hold(event, now: now.monotonic), to: client)
            } else {
                deliver([event], to: client, now: now, origin: origin)
            }
        }
    }

    /// Under `-v`: which rule dropped a change, the first time that rule
    /// (a default ignore) or that path (any other rule) is met
    /// (`IgnoreMentions`).
    mutating func noteDropped(_ path: FilePath, in directory: WatchTable.Node, isDirectory: Bool, by client: ReaderClient) {
        guard Diagnostics.isEnabled, let reason = client.dropReason(path, in: directory, isDirectory: isDirectory),
              let line = client.ignoreMentions.line(for: path, reason) else { return }
        actions.append(.verbose(line))
    }

    /// A rename whose both halves were seen.
    private mutating func movedWithin(_ from: PendingMove, to at: Located, now: ReaderTime) {
        var movedNode: WatchTable.Node? = nil
        if from.isDirectory, let name = from.path.lastComponent {
            movedNode = name.withBytes { table.child(of: from.directory, named: $0) }
        }
        let watchedBefore = clients.map { client in movedNode.map { client.tree.contains($0) } ?? false }
        if from.isDirectory {
            // What was polled there is watched afresh at the new place, below.
            for client in clients { stopPolling(client, under: from.path) }
            if let movedNode, let name = at.path.lastComponent {
                name.withBytes { table.move(movedNode, to: at.node, name: $0) }
                lastDirectory = nil
            }
        }
        for (position, client) in clients.enumerated() {
            let source = FileEvent(path: from.path, kind: .movedFrom, isDirectory: from.isDirectory, cookie: from.cookie)
            let target = FileEvent(path: at.path, kind: .movedTo, isDirectory: from.isDirectory, cookie: from.cookie)
            let fromReported = client.reports(from.path, in: from.directory, isDirectory: from.isDirectory)
            let toReported = client.reports(at.path, in: at.node, isDirectory: from.isDirectory)
            guard from.isDirectory else {
                // A temporary file renamed over the real one, a file renamed
                // to a backup name or back: the save coalescer decides.
                deliverChecked(client.coalescer.renamed(from: fromReported ? source : nil, to: toReported ? target : nil,
                                                        now: now.monotonic), to: client)
                continue
            }
            deliver((fromReported ? [source] : []) + (toReported ? [target] : []), to: client, now: now)
            let wants = client.wantsDirectory(at.path, in: at.node)
            if watchedBefore[position], !wants {
                releaseTree(at.path, for: client, kernelDropped: false)
            } else if !watchedBefore[position], wants {
                walkAppeared(at.path, for: client, now: now)
            }
        }
        // Renamed onto a root waited for, or onto a directory on the way to
        // one (a directory filled under another name, then put in place).
        rootCandidateAppeared(at.path)
    }

    /// A `movedFrom` whose `movedTo` never came: it left the watched trees.
    private mutating func movedOut(_ move: PendingMove, at now: ReaderTime) {
        if move.isDirectory { releaseTree(move.path, kernelDropped: false) }
        let event = FileEvent(path: move.path, kind: .movedFrom, isDirectory: move.isDirectory, cookie: move.cookie)
        route(event, from: move.directory, now: now, fileRootMayVanish: true)
    }

    /// Delivers through the client's save coalescer.
    mutating func deliver(_ events: [FileEvent], to client: ReaderClient, now: ReaderTime, origin: SaveCoalescer.Origin = .kernel) {
        guard !events.isEmpty else { return }
        var out: [FileEvent] = []
        for event in events { out += client.coalescer.pass(event, now: now.monotonic, origin: origin) }
        deliverChecked(out, to: client)
    }

    /// Sends events, then acts on those that say a watched single file is
    /// gone. A removal that ends an operation's writes
    /// (`WatchOptions.endsWritesUnder`) goes after the new files it wrote.
    mutating func deliverChecked(_ events: [FileEvent], to client: ReaderClient) {
        if !client.options.endsWritesUnder.isEmpty, events.contains(where: { $0.kind == .deleted || $0.kind == .movedFrom }) {
            releaseNew(under: client.options.endsWritesUnder)
            // Sent first: whoever waits for the operation's end has them by then.
            flush()
        }
        client.send(events)
        for event in events where event.kind == .deleted || event.kind == .movedFrom {
            if let index = client.rootIndex(of: event.path), client.roots[index].isFile {
                rootLost(client, index, announced: true)
            }
        }
    }
}
