import SystemPackage

/// Clients coming and going: arming every root of a new subscription,
/// failing one, dropping one that left; and the test seams' inputs.
extension ReaderMachine {
    /// Registers `client` and watches its roots: each with inotify, or
    /// polled as a whole (the backend says so, its mount needs it, or
    /// inotify could not start), or with inotify around polled mounts and
    /// directories that found no watch. Polled parts join `gate`, so the
    /// subscriber waits for their first pass; what git tracks (asked
    /// beside the walk) is watched before the gate opens.
    mutating func add(_ client: ReaderClient, gate: ArmGate?) -> [Action] {
        if case .inotify = client.options.backend, let startError {
            actions.append(.fail(startError, to: client.sink))
            return takeActions()
        }
        clients.append(client)
        let mounts: MountTable? = if case .auto = client.options.backend { system.mounts() } else { nil }
        for index in client.roots.indices where !client.ended {
            armRoot(client, index, mounts: mounts)
        }
        if !client.ended {
            take(system.tracked(client.trackedLookups), for: client)
            client.trackedLookups = []
            if let (since, reported) = client.changedSince {
                client.changedSince = nil
                reportChanged(client, since: since, except: reported)
            }
            flushPolling(client, gate: gate)
        }
        return takeActions()
    }

    /// Watches root `index` of a new client, with inotify or by polling.
    private mutating func armRoot(_ client: ReaderClient, _ index: Int, mounts: MountTable?) {
        let path = client.roots[index].path
        switch system.kind(path, follow: true) {
        case .missing:
            if client.waitsForMissingRoots, client.options.onRootDeleted == .waitForReappearance {
                client.roots[index].waiting = true
                return armSentinels(client)
            }
            return fail(client, FileWatchError(.noSuchPath(path)))
        case .directory: break
        case .other: client.roots[index].isFile = true
        }
        if let reason = wholeRootPolling(client, index, mounts: mounts) {
            client.roots[index].polledWhole = true
            queuePoll(client, index, path: path, isFile: client.roots[index].isFile, reportsFirstScan: false)
            let interval = client.options.backend.pollInterval
            actions.append(.announce(WatchNotice(path: path, kind: .polling(interval: interval, reason: reason))))
            return
        }
        if let mounts, !client.roots[index].isFile {
            client.roots[index].mountPoints = mounts.mountPoints(under: path)
        }
        do {
            if !client.roots[index].isFile {
                for directory in client.roots[index].filter.followedDirectories {
                    try acquire(directory, for: client, as: .rules)
                }
            }
            let found = try armRoot(client, index, mode: client.options.reportsExisting ? .reportAll : .silent)
            if client.options.reportsExisting { client.send(found) }
        } catch {
            return fail(client, error)
        }
        if client.announcesWatch { actions.append(.announce(WatchNotice(path: path, kind: .inotify))) }
    }

    /// Watches root `index` of `client` (its tree, or a file's parent).
    mutating func armRoot(_ client: ReaderClient, _ index: Int, mode: WalkMode) throws(FileWatchError) -> [FileEvent] {
        let root = client.roots[index]
        if root.isFile {
            try acquire(FileSystem.parent(root.path), for: client, isRoot: true)
            return []
        }
        return try walk(client, index, from: root.path, relative: "", mode: mode)
    }

    /// The client `id` left: its watches and polled parts go.
    mutating func remove(_ id: Int) -> [Action] {
        if let client = clients.first(where: { $0.id == id }) { drop(client) }
        return takeActions()
    }

    /// Ends `client` with `error`, after what it was sent before.
    mutating func fail(_ client: ReaderClient, _ error: FileWatchError) {
        flush()
        drop(client)
        actions.append(.fail(error, to: client.sink))
    }

    /// Forgets `client`: its holds are released, its polling stops.
    mutating func drop(_ client: ReaderClient) {
        client.ended = true
        actions.append(.stopTracked(client.trackedRefresh))
        stopAllPolling(client)
        for node in client.allHeld { release(node, kernelDropped: false) }
        client.tree.removeAll()
        client.sentinels.removeAll()
        client.ruleDirectories.removeAll()
        client.outbox.removeAll()
        clients.removeAll { $0 === client }
    }

    /// The sinks of every client, for a barrier to wait on.
    var sinks: [EventSink] { clients.map(\.sink) }

    /// Delivers the new files that the clients watching paths at or below
    /// `tops` hold back (a new file is held a moment in case it is a
    /// temporary one): a repository operation that ends wrote them, and
    /// they must arrive before its end does (`WatchOptions.endsWritesUnder`).
    mutating func releaseNew(under tops: [FilePath]) {
        for client in clients where client.options.endsWritesUnder.isEmpty && client.roots.contains(where: { root in
            tops.contains { FileSystem.relative(root.path, to: $0) != nil || FileSystem.relative($0, to: root.path) != nil }
        }) {
            deliverChecked(client.coalescer.releaseNew(), to: client)
        }
    }

    // MARK: The inotify instance

    /// Whether the inotify instance could be made: without one, nothing is
    /// watched with inotify, and `.auto` polls (saying how many instances
    /// the user may have, `instanceLimit`).
    mutating func instanceOpened(_ error: FileWatchError?, instanceLimit: Int = 0) {
        startError = error
        self.instanceLimit = instanceLimit
    }

    /// The inotify instance was closed, taking every watch with it.
    mutating func instanceClosed() {
        table.removeAll()
        lastDirectory = nil
    }
}
