import SystemPackage

/// The polled parts of the clients, seen from the reader thread: which
/// roots are polled as a whole, handing subtrees to the poller
/// (`PollScanner`, its own thread) and taking them back, and delivering
/// what its passes found.
///
/// Every directory is watched by exactly one backend: inotify does not
/// watch what is polled. So a change is reported once, whichever backend
/// sees it.
extension ReaderLoop {
    /// Why root `index` of `client` is polled as a whole, or nil when
    /// inotify watches it (perhaps around polled mounts inside it).
    func wholeRootPolling(_ client: WatchClient, _ index: Int, mounts: MountTable?) -> WatchNotice.PollReason? {
        switch client.options.backend {
        case .poll:
            return .requested
        case .inotify:
            return nil
        case .auto:
            if let startError {
                guard case .inotifyUnavailable(let code) = startError.reason else { return .inotifyUnavailable(errno: 0, instanceLimit: 0) }
                return .inotifyUnavailable(errno: code, instanceLimit: InotifyLibrary.maxUserInstances)
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
    func queuePoll(_ client: WatchClient, _ index: Int, path: FilePath, isFile: Bool = false, reportsFirstScan: Bool) {
        let relative = FileSystem.relative(path, to: client.roots[index].path) ?? FilePath()
        client.polledSubtrees[index, default: []].insert(path)
        client.pendingPolls[index, default: []].append(PollJob.Subtree(
            relative: relative.bytes, path: path.bytes, isFile: isFile, reportsFirstScan: reportsFirstScan))
    }

    /// Hands every client's queued subtrees to the poller.
    func flushPolling() {
        for client in clients where !client.pendingPolls.isEmpty {
            flushPolling(client, gate: nil)
        }
    }

    /// Hands `client`'s queued subtrees to its root's poll job, or to a new
    /// one, which opens `gate` after its first pass.
    func flushPolling(_ client: WatchClient, gate: ArmGate?) {
        defer { client.pendingPolls.removeAll() }
        guard !client.ended else { return }
        for (index, subtrees) in client.pendingPolls {
            if let job = client.pollJobs[index] {
                for subtree in subtrees { PollScanner.shared.submit(.add(job: job, subtree)) }
                continue
            }
            let id = reader.makeID()
            let clientID = client.id
            let reader = self.reader
            gate?.hold()
            let root = client.roots[index]
            // A root polled whole has no inotify watch to hear its outside rule files by.
            let job = PollJob(
                id: id, clientID: clientID, rootIndex: index, rootPath: root.path,
                interval: client.options.backend.pollInterval, filter: root.filter,
                followed: FollowedFiles(root.polledWhole && !root.isFile ? root.filter.followedFiles : []),
                subtrees: subtrees, gate: gate,
                output: { output in reader.deliverPolled(client: clientID, job: id, output) })
            client.pollJobs[index] = id
            PollScanner.shared.submit(.start(job))
        }
    }

    /// Stops polling, silently, what `client` polls at or below `path`.
    func stopPolling(_ client: WatchClient, under path: FilePath) {
        client.pendingPolls = client.pendingPolls.compactMapValues { subtrees in
            let left = subtrees.filter { FileSystem.relative(FilePath(bytes: $0.path), to: path) == nil }
            return left.isEmpty ? nil : left
        }
        for (index, paths) in client.polledSubtrees {
            let inside = paths.filter { FileSystem.relative($0, to: path) != nil }
            guard !inside.isEmpty else { continue }
            client.polledSubtrees[index]?.subtract(inside)
            if client.polledSubtrees[index]?.isEmpty == true { client.polledSubtrees[index] = nil }
            guard let job = client.pollJobs[index] else { continue }
            let relative = FileSystem.relative(path, to: client.roots[index].path) ?? FilePath()
            PollScanner.shared.submit(.remove(job: job, under: relative.bytes))
        }
    }

    /// Ends every poll job of `client`.
    func stopAllPolling(_ client: WatchClient) {
        for job in client.pollJobs.values { PollScanner.shared.submit(.stop(job: job)) }
        client.pollJobs.removeAll()
        client.polledSubtrees.removeAll()
        client.pendingPolls.removeAll()
    }

    /// What poll job `jobID` of client `clientID` found.
    func polled(_ clientID: Int, _ jobID: Int, _ output: PollOutput) {
        guard let client = clients.first(where: { $0.id == clientID }), !client.ended,
              let index = client.pollJobs.first(where: { $0.value == jobID })?.key
        else { return }
        switch output {
        case .events(let events):
            // Through the save coalescer (a file renamed away and written
            // again makes one `modified`); a polled root's own loss comes
            // as `rootMissing`.
            // A pass sees what is already there: nothing to wait for.
            // The coalescer's deadlines are on the monotonic clock, as the
            // rest of this thread's.
            let now = FileSystem.monotonicNow()
            var out: [FileEvent] = []
            for event in events { out += client.coalescer.pass(event, now: now, origin: .scan) }
            client.send(out)
        case .renamedAway(let events):
            let now = FileSystem.monotonicNow()
            for event in events { client.send(client.coalescer.hold(event, now: now)) }
        case .rulesChanged:
            trackedMayHaveChanged(client)
        case .rootMissing:
            if client.options.onRootDeleted == .fail {
                fail(client, FileWatchError(.rootDeleted(client.roots[index].path)))
            }
        }
    }
}
