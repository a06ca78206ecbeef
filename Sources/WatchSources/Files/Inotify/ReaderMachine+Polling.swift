import SystemPackage

/// The polled parts of the clients, seen from the reader: which roots are
/// polled as a whole, handing subtrees to the poller (`PollScanner`, its
/// own thread, which delivers what it finds to the client's sink itself,
/// and tells the client's `TrackedFilesRefresh` when a rule file or git's
/// index in its part changed) and taking them back, and mounts coming and
/// going under `.auto` roots. Commands go down to the poller; nothing
/// comes back up.
///
/// Every directory is watched by exactly one backend: inotify does not
/// watch what is polled. So a change is reported once, whichever backend
/// sees it.
extension ReaderMachine {
    /// Why root `index` of `client` is polled as a whole, or nil when
    /// inotify watches it (perhaps around polled mounts inside it).
    func wholeRootPolling(_ client: ReaderClient, _ index: Int, mounts: MountTable?) -> WatchNotice.PollReason? {
        switch client.options.backend {
        case .poll:
            return .requested
        case .inotify:
            return nil
        case .auto:
            if let startError {
                guard case .inotifyUnavailable(let code) = startError.reason else { return .inotifyUnavailable(errno: 0, instanceLimit: 0) }
                return .inotifyUnavailable(errno: code, instanceLimit: instanceLimit)
            }
            let root = client.roots[index]
            let directory = root.isFile ? FileSystem.parent(root.path) : root.path
            if let mount = mounts?.mount(of: directory), mount.needsPolling { return .fileSystem(mount.fsType) }
            return nil
        }
    }

    /// Marks `path` (a directory of root `index`, or the root's single file)
    /// as polled; `flushPolling` hands it to the poller once the walk under
    /// way is done.
    mutating func queuePoll(_ client: ReaderClient, _ index: Int, path: FilePath, isFile: Bool = false, reportsFirstScan: Bool) {
        let relative = FileSystem.relative(path, to: client.roots[index].path) ?? FilePath()
        client.polling[index, default: ReaderClient.PolledRoot()].subtrees.insert(path)
        client.polling[index]?.pending.append(PollMachine.Subtree(
            relative: relative.bytes, path: path.bytes, isFile: isFile, reportsFirstScan: reportsFirstScan))
    }

    /// Hands every client's queued subtrees to the poller.
    mutating func flushPolling() {
        for client in clients where client.polling.values.contains(where: { !$0.pending.isEmpty }) {
            flushPolling(client, gate: nil)
        }
    }

    /// Hands `client`'s queued subtrees to its root's poll job, or to a new
    /// one, which opens `gate` after its first pass.
    mutating func flushPolling(_ client: ReaderClient, gate: ArmGate?) {
        for index in client.polling.keys {
            let subtrees = client.polling[index]!.pending
            client.polling[index]!.pending = []
            guard !client.ended, !subtrees.isEmpty else { continue }
            if let job = client.polling[index]!.job {
                for subtree in subtrees { actions.append(.poll(.add(job: job, subtree))) }
                continue
            }
            nextJobID += 1
            gate?.hold()
            let root = client.roots[index]
            // A root polled whole has no inotify watch to hear its outside rule files by.
            let job = PollJob(
                id: nextJobID, rootIndex: index, rootPath: root.path,
                interval: client.options.backend.pollInterval, filter: root.filter,
                followed: FollowedFiles(root.polledWhole && !root.isFile ? root.filter.followedFiles : []),
                subtrees: subtrees, gate: gate, sink: client.sink, coalescesSaves: client.options.coalescesSaves,
                onRootDeleted: client.options.onRootDeleted, tracked: client.trackedRefresh)
            client.polling[index]!.job = nextJobID
            actions.append(.poll(.start(job)))
        }
    }

    /// Stops polling, silently, what `client` polls at or below `path`.
    mutating func stopPolling(_ client: ReaderClient, under path: FilePath) {
        for index in client.polling.keys {
            client.polling[index]!.pending.removeAll { FileSystem.relative(FilePath(bytes: $0.path), to: path) != nil }
            let inside = client.polling[index]!.subtrees.filter { FileSystem.relative($0, to: path) != nil }
            guard !inside.isEmpty else { continue }
            client.polling[index]!.subtrees.subtract(inside)
            guard let job = client.polling[index]!.job else { continue }
            let relative = FileSystem.relative(path, to: client.roots[index].path) ?? FilePath()
            actions.append(.poll(.remove(job: job, under: relative.bytes)))
        }
    }

    /// Ends every poll job of `client`.
    mutating func stopAllPolling(_ client: ReaderClient) {
        for job in client.polling.values.compactMap(\.job) { actions.append(.poll(.stop(job: job))) }
        client.polling.removeAll()
    }

    // MARK: Mounts

    /// The mount table changed (`/proc/self/mountinfo` said so): every
    /// directory under an `.auto` root whose mount changed is watched
    /// afresh. A network or FUSE mount that appeared is polled, a local one
    /// gets inotify watches (those of the directory it covers see nothing
    /// any more), and where a mount went, the directory beneath is watched
    /// again.
    mutating func mountsChanged(_ mounts: MountTable) -> [Action] {
        for client in clients where !client.ended {
            guard case .auto = client.options.backend else { continue }
            for index in client.roots.indices {
                let root = client.roots[index]
                guard !root.waiting, !root.isFile, !root.polledWhole else { continue }
                let now = mounts.mountPoints(under: root.path)
                let before = root.mountPoints
                guard now != before else { continue }
                client.roots[index].mountPoints = now
                // Shallow first: a directory re-watched covers those below it.
                let changed = Set(before.keys.filter { now[$0] != before[$0] } + now.keys.filter { before[$0] != now[$0] })
                var done: [FilePath] = []
                for path in changed.sorted(by: { $0.length < $1.length }) {
                    if done.contains(where: { FileSystem.relative(path, to: $0) != nil }) { continue }
                    if rewatch(client, index, path) { done.append(path) }
                    if client.ended { break }
                }
            }
            flushPolling(client, gate: nil)
        }
        return takeActions()
    }

    /// Watches directory `path` of root `index` afresh, as its mount now
    /// asks, without reporting what it holds; false when it is not part of
    /// the watched tree (ignored, or inside a polled subtree, which sees
    /// the change by itself).
    private mutating func rewatch(_ client: ReaderClient, _ index: Int, _ path: FilePath) -> Bool {
        let polled = client.polling[index]?.subtrees ?? []
        if polled.contains(where: { $0 != path && FileSystem.relative(path, to: $0) != nil }) { return false }
        // Only a directory of the watched tree: its parent is watched, and the rules want it.
        guard let parent = table.held(FileSystem.parent(path)), client.wantsDirectory(path, in: parent) else { return false }
        stopPolling(client, under: path)
        releaseTree(path, for: client, kernelDropped: false)
        guard system.kind(path, follow: false) == .directory, let relative = FileSystem.relative(path, to: client.roots[index].path) else {
            return true
        }
        do {
            _ = try walk(client, index, from: path, relative: relative, mode: .silent)
        } catch {
            fail(client, error)
        }
        return true
    }
}
