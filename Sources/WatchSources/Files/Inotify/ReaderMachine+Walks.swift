import SystemPackage

/// Walking trees: arming a root, a directory that appeared, a rescan after
/// the kernel queue overflowed.
extension ReaderMachine {
    enum WalkMode {
        case silent
        case reportAll
        case reportChangedSince(Double)

        /// Whether the walk looks at files at all (a silent one only
        /// descends into directories).
        var reportsFiles: Bool {
            if case .silent = self { return false }
            return true
        }
    }

    /// A directory the walk will visit, and where it is below its root.
    private typealias Visit = (path: FilePath, relative: FilePath)

    /// Watches `start` and every directory below it that `client` wants
    /// (root `index`), reading ignore files on the way; returns the events
    /// `mode` asks for. A mount that needs polling, or a directory that
    /// finds no watch under `.auto`, goes to the poller instead.
    mutating func walk(_ client: ReaderClient, _ index: Int, from start: FilePath, relative: FilePath, mode: WalkMode)
        throws(FileWatchError) -> [FileEvent]
    {
        var events: [FileEvent] = []
        var stack: [Visit] = [(start, relative)]
        while let visit = stack.popLast() {
            let isRoot = visit.relative.isEmpty
            if case .reportChangedSince = mode, !isRoot, table.held(visit.path) == nil {
                events.append(FileEvent(path: visit.path, kind: .created, isDirectory: true))
            }
            guard try watch(visit.path, client, index, isRoot: isRoot, mode: mode) else { continue }
            guard let listing = list(visit.path, keepingFiles: mode.reportsFiles) else { continue }
            client.roots[index].filter.loadDirectory(visit.relative, at: visit.path, hasRuleFile: listing.hasRuleFile)
            // One copy of the filter per directory, none per name.
            let filter = client.roots[index].filter
            for entry in listing.entries {
                let path = FileSystem.join(visit.path, entry.name)
                let childRelative = visit.relative.appending(entry.name)
                if entry.isDirectory, filter.watchesDirectory(childRelative) {
                    stack.append((path, childRelative))
                }
                if let event = report(path, childRelative, isDirectory: entry.isDirectory, filter, mode) { events.append(event) }
            }
        }
        return events
    }

    /// Watches one directory of a walk: false when it goes to the poller
    /// instead (a network or FUSE mount; out of watches under `.auto`).
    private mutating func watch(_ directory: FilePath, _ client: ReaderClient, _ index: Int, isRoot: Bool, mode: WalkMode)
        throws(FileWatchError) -> Bool
    {
        let interval = client.options.backend.pollInterval
        if !isRoot, let mount = client.roots[index].mountPoints[directory], mount.needsPolling {
            // A network or FUSE mount: inotify would not hear of changes made on its other side.
            queuePoll(client, index, path: directory, reportsFirstScan: isReportingAll(mode))
            actions.append(.announce(WatchNotice(path: directory, kind: .polling(interval: interval, reason: .fileSystem(mount.fsType)))))
            return false
        }
        do {
            try acquire(directory, for: client, isRoot: isRoot && directory == client.roots[index].path)
        } catch {
            // Out of watches: under `.auto`, poll what found none.
            guard case .watchLimit(_, let limit) = error.reason, case .auto = client.options.backend else { throw error }
            queuePoll(client, index, path: directory, reportsFirstScan: isReportingAll(mode))
            actions.append(.announce(WatchNotice(path: directory, kind: .polling(interval: interval, reason: .watchLimit(limit)))))
            return false
        }
        return true
    }

    private func isReportingAll(_ mode: WalkMode) -> Bool {
        if case .reportAll = mode { return true }
        return false
    }

    /// What a directory holds: its subdirectories, and its files when
    /// `keepingFiles` (arming a large tree lists ten files for every
    /// directory, and reports none: names become paths only for what is
    /// kept), and whether a rule file is among them. Nil when it cannot be
    /// read (gone meanwhile).
    private func list(_ directory: FilePath, keepingFiles: Bool) -> (entries: [FileSystem.Entry], hasRuleFile: Bool)? {
        var entries: [FileSystem.Entry] = []
        var hasRuleFile = false
        let listed = system.forEachEntry(in: directory) { name, isDirectory in
            if !hasRuleFile, PathFilter.isRuleFileName(name) { hasRuleFile = true }
            guard isDirectory || keepingFiles, let component = FilePath.Component(bytes: name) else { return }
            entries.append(FileSystem.Entry(name: component, isDirectory: isDirectory))
        }
        return listed ? (entries, hasRuleFile) : nil
    }

    /// The event a walk in `mode` reports for an entry it found, if any.
    private mutating func report(_ path: FilePath, _ relative: FilePath, isDirectory: Bool, _ filter: PathFilter,
                                 _ mode: WalkMode) -> FileEvent? {
        switch mode {
        case .silent:
            return nil
        case .reportAll:
            guard filter.reports(relative, isDirectory: isDirectory) else { return nil }
            scanned.insert(path)
            return FileEvent(path: path, kind: .created, isDirectory: isDirectory)
        case .reportChangedSince(let since):
            guard !isDirectory, filter.reports(relative, isDirectory: false),
                  let changed = system.changeTime(path), changed >= since else { return nil }
            return FileEvent(path: path, kind: .modified)
        }
    }

    /// A directory appeared at `path` (created or moved in) in the watched
    /// `directory`: watch and scan it for every client that wants it; the
    /// scan reports what it holds.
    mutating func directoryAppeared(_ path: FilePath, in directory: WatchTable.Node, kind: FileEvent.Kind, cookie: UInt32,
                                    now: ReaderTime) {
        for client in clients {
            if client.reports(path, in: directory, isDirectory: true) {
                deliver([FileEvent(path: path, kind: kind, isDirectory: true, cookie: cookie)], to: client, now: now)
            } else {
                noteDropped(path, in: directory, isDirectory: true, by: client)
            }
            if client.wantsDirectory(path, in: directory) { walkAppeared(path, for: client, now: now) }
        }
    }

    /// The directory `path`, which refused a watch, changed its attributes
    /// (a `chmod` may have let rwatch in): each client that wants it and
    /// holds no watch on it tries again, and on success walks it as a
    /// directory that appeared, reporting what it holds as new. Still
    /// refused, it stays in `refused`, not warned about again.
    mutating func retryRefused(_ path: FilePath, in directory: WatchTable.Node, now: ReaderTime) {
        for client in clients where client.wantsDirectory(path, in: directory) {
            if let held = table.held(path), client.tree.contains(held) { continue }
            walkAppeared(path, for: client, now: now)
        }
    }

    /// Walks the new directory `path` of `client`, reporting what it holds.
    mutating func walkAppeared(_ path: FilePath, for client: ReaderClient, now: ReaderTime) {
        guard let (index, relative) = client.locate(path) else { return }
        do {
            deliver(try walk(client, index, from: path, relative: relative, mode: .reportAll), to: client, now: now, origin: .scan)
        } catch {
            fail(client, error)
        }
    }

    /// Events were lost: say so, re-walk the trees (watching what is new),
    /// forget directories that are gone, and report what changed since `since`.
    mutating func overflow(_ client: ReaderClient, since: Double) {
        guard !client.ended else { return }
        client.send(client.coalescer.expire(now: .infinity))
        client.send([FileEvent(path: client.roots.first?.path ?? "/", kind: .overflow)])
        var events: [FileEvent] = []
        for node in client.tree {
            let directory = table.path(of: node)
            guard system.kind(directory, follow: false) != .directory else { continue }
            if client.reports(directory, in: nil, isDirectory: true) {
                events.append(FileEvent(path: directory, kind: .deleted, isDirectory: true))
            }
            client.tree.remove(node)
            release(node, kernelDropped: true)
        }
        reportChanged(client, since: since, events: events)
    }

    /// Reports the files of `client`'s trees changed since `since` (wall
    /// clock seconds) as `modified`, after `events`, leaving out those in
    /// `except` whose change time is still the one it gives.
    mutating func reportChanged(_ client: ReaderClient, since: Double, events: [FileEvent] = [], except: [FilePath: Double] = [:]) {
        var events = events
        // Timestamps are coarse: look one second further back.
        let threshold = since - 1
        for index in client.roots.indices where !client.roots[index].waiting {
            let root = client.roots[index]
            if root.isFile {
                if let changed = system.changeTime(root.path), changed >= threshold {
                    events.append(FileEvent(path: root.path, kind: .modified))
                }
                continue
            }
            do {
                events += try walk(client, index, from: root.path, relative: "", mode: .reportChangedSince(threshold))
            } catch {
                client.send(events)
                return fail(client, error)
            }
        }
        if !except.isEmpty {
            events.removeAll { event in
                guard let known = except[event.path], let changed = system.changeTime(event.path) else { return false }
                return abs(changed - known) < 1e-6
            }
        }
        client.send(events)
    }
}
