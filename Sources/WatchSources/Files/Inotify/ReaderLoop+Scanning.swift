import SystemPackage

/// Walking trees: arming a new directory, rescanning after an overflow.
extension ReaderLoop {
    /// Watches `start` and every directory below it that `client` wants,
    /// reading ignore files on the way; returns the events `mode` asks for.
    func walk(_ client: WatchClient, _ index: Int, from start: FilePath, relative: FilePath, mode: WalkMode)
        throws(FileWatchError) -> [FileEvent]
    {
        var events: [FileEvent] = []
        var stack = [(start, relative)]
        while let (directory, relativePath) = stack.popLast() {
            let isRoot = relativePath.isEmpty
            if case .reportChangedSince = mode, !table.contains(directory), !isRoot {
                events.append(FileEvent(path: directory, kind: .created, isDirectory: true))
            }
            if !isRoot, let mount = client.roots[index].mountPoints[directory], mount.needsPolling {
                // A network or FUSE mount: inotify would not hear of changes made on its other side.
                queuePoll(client, index, path: directory, reportsFirstScan: mode.reportsAll)
                FileWatcher.announce(WatchNotice(path: directory, kind: .polling(
                    interval: client.options.backend.pollInterval, reason: .fileSystem(mount.fsType))))
                continue
            }
            do {
                try table.acquire(directory, for: client, isRoot: isRoot && directory == client.roots[index].path)
            } catch {
                // Out of watches: under `.auto`, poll what found none.
                guard case .watchLimit(_, let limit) = error.reason, case .auto = client.options.backend else { throw error }
                queuePoll(client, index, path: directory, reportsFirstScan: mode.reportsAll)
                FileWatcher.announce(WatchNotice(path: directory, kind: .polling(
                    interval: client.options.backend.pollInterval, reason: .watchLimit(limit))))
                continue
            }
            // Names become paths only for what is kept: directories, and
            // files when the walk reports them (arming a large tree lists
            // ten files for every directory, and reports none).
            var entries: [FileSystem.Entry] = []
            var hasRuleFile = false
            let keepsFiles = mode.reportsFiles
            let listed = FileSystem.forEachEntry(in: directory) { name, isDirectory in
                if !hasRuleFile, PathFilter.isRuleFileName(name) { hasRuleFile = true }
                guard isDirectory || keepsFiles, let component = name.withMemoryRebound(to: CChar.self, {
                    FilePath.Component(platformString: $0.baseAddress!)
                }) else { return }
                entries.append(FileSystem.Entry(name: component, isDirectory: isDirectory))
            }
            guard listed else { continue }
            client.roots[index].filter.loadDirectory(relativePath, at: directory, hasRuleFile: hasRuleFile)
            // One copy of the filter per directory, none per name.
            let filter = client.roots[index].filter
            for entry in entries {
                let path = FileSystem.join(directory, entry.name)
                let childRelative = relativePath.appending(entry.name)
                if entry.isDirectory, filter.watchesDirectory(childRelative) {
                    stack.append((path, childRelative))
                }
                switch mode {
                case .silent:
                    break
                case .reportAll:
                    if filter.reports(childRelative, isDirectory: entry.isDirectory) {
                        events.append(FileEvent(path: path, kind: .created, isDirectory: entry.isDirectory))
                        scanned.insert(path)
                    }
                case .reportChangedSince(let since):
                    if !entry.isDirectory, filter.reports(childRelative, isDirectory: false),
                       let changed = FileSystem.changeTime(path), changed >= since {
                        events.append(FileEvent(path: path, kind: .modified))
                    }
                }
            }
        }
        return events
    }

    /// A directory appeared at `path` (created or moved in): watch and scan
    /// it for every client that wants it; the scan reports what it holds.
    func directoryAppeared(_ path: FilePath, in directory: FilePath, kind: FileEvent.Kind, cookie: UInt32) {
        for client in clients where client.deafSince == nil {
            if client.reports(path, in: directory, isDirectory: true) {
                deliver([FileEvent(path: path, kind: kind, isDirectory: true, cookie: cookie)], to: client)
            } else {
                client.noteDropped(path, in: directory, isDirectory: true)
            }
            if client.wantsDirectory(path, in: directory), let (index, relative) = client.locate(path) {
                do {
                    deliver(try walk(client, index, from: path, relative: relative, mode: .reportAll), to: client, origin: .scan)
                } catch {
                    fail(client, error)
                }
            }
        }
    }


    /// Events were lost: say so, re-walk the trees (watching what is new),
    /// forget directories that are gone, and report what changed since `since`.
    func overflow(_ client: WatchClient, since: Double) {
        guard !client.ended else { return }
        client.send(client.coalescer.expire(now: .infinity))
        client.send([FileEvent(path: client.roots.first?.path ?? "/", kind: .overflow)])
        var events: [FileEvent] = []
        for directory in client.watched where FileSystem.kind(directory) != .directory {
            if client.reports(directory, in: nil, isDirectory: true) {
                events.append(FileEvent(path: directory, kind: .deleted, isDirectory: true))
            }
            client.watched.remove(directory)
            table.release(directory, kernelDropped: true)
        }
        // Timestamps are coarse: look one second further back.
        let threshold = since - 1
        for index in client.roots.indices where !client.roots[index].waiting {
            let root = client.roots[index]
            if root.isFile {
                if let changed = FileSystem.changeTime(root.path), changed >= threshold {
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
        client.send(events)
    }
}
