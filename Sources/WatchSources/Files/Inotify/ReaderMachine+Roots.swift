import SystemPackage

/// Roots that are deleted or moved away: end the client, or wait for them
/// with a sentinel watch on the deepest existing ancestor, as `tail -F`
/// waits for a file.
extension ReaderMachine {
    /// A watched directory (`node`, at `directory`) reported its own deletion or move.
    mutating func directoryVanished(_ node: WatchTable.Node, _ directory: FilePath, moved: Bool) {
        for client in clients {
            for index in client.roots.indices {
                let root = client.roots[index]
                let hit = root.isFile ? FileSystem.parent(root.path) == directory : root.path == directory
                guard hit else { continue }
                if !root.waiting { rootLost(client, index, announced: false, kernelDropped: !moved) }
                // A single file's directory went, and its watch with it,
                // even when the file had gone first: a directory made
                // again at that path (rmdir, mkdir) needs a watch of its
                // own, which the dead one must not stand in for.
                if root.isFile, client.tree.remove(node) != nil { release(node, kernelDropped: !moved) }
            }
            // A directory of rule files went: its watch is gone with it.
            if client.ruleDirectories.remove(node) != nil {
                release(node, kernelDropped: !moved)
            }
            // A directory watched for a waiting root's return went too: look higher up.
            if client.sentinels.contains(node), !client.ended {
                if !moved { table.markGone(node) }
                armSentinels(client)
            }
        }
    }

    /// Root `index` of `client` is gone: report it, then end or wait.
    mutating func rootLost(_ client: ReaderClient, _ index: Int, announced: Bool, kernelDropped: Bool = false) {
        guard !client.ended, !client.roots[index].waiting else { return }
        let root = client.roots[index]
        if !announced {
            client.send(client.coalescer.expire(now: .infinity))
            client.send([FileEvent(path: root.path, kind: .deleted, isDirectory: !root.isFile)])
        }
        let watchedRoot = root.isFile ? FileSystem.parent(root.path) : root.path
        stopPolling(client, under: root.path)
        let waits = client.options.onRootDeleted == .waitForReappearance
        if root.isFile, waits, system.kind(watchedRoot, follow: false) == .directory {
            client.roots[index].waiting = true
            do { try acquire(watchedRoot, for: client, as: .sentinel) } catch { fail(client, error) }
            return
        }
        releaseTree(watchedRoot, for: client, kernelDropped: kernelDropped)
        guard waits else { return fail(client, FileWatchError(.rootDeleted(root.path))) }
        client.roots[index].waiting = true
        armSentinels(client)
    }

    /// Watches the deepest existing ancestor of every waiting root of `client`.
    ///
    /// What appears below a sentinel before its watch lands raises no
    /// event, so each sentinel is checked once it is in place: when the
    /// next directory on the way to the root exists already (`mkdir -p`
    /// under way), the sentinel is too high and the climb starts again
    /// from below; when the root itself exists, it is armed and scanned.
    mutating func armSentinels(_ client: ReaderClient) {
        for sentinel in client.sentinels { release(sentinel, kernelDropped: false) }
        client.sentinels.removeAll()
        var reappeared: [FilePath] = []
        for root in client.roots where root.waiting {
            guard climb(towards: root.path, for: client) else { return }
            // It may have come back before the sentinel landed.
            if system.kind(root.path, follow: true) != .missing { reappeared.append(root.path) }
        }
        for path in reappeared { rootCandidateAppeared(path) }
    }

    /// Holds a sentinel on the deepest ancestor of `root` that exists and
    /// takes a watch, checked once the watch is in place; false when the
    /// client failed.
    private mutating func climb(towards root: FilePath, for client: ReaderClient) -> Bool {
        // Directories that cannot be watched (no permission): waited above, never descended into.
        var unwatchable: Set<FilePath> = []
        var ancestor = FileSystem.parent(root)
        while true {
            // Ancestors may be vanishing while we look (rm -rf in progress): climb until one holds.
            while ancestor != "/", unwatchable.contains(ancestor) || system.kind(ancestor, follow: true) != .directory {
                ancestor = FileSystem.parent(ancestor)
            }
            let heldBefore = table.held(ancestor).map { client.sentinels.contains($0) } ?? false
            do {
                guard try acquire(ancestor, for: client, as: .sentinel) else {
                    if ancestor == "/" { return true }
                    // Gone meanwhile (the climb goes on above it), or there but not watchable.
                    if system.kind(ancestor, follow: true) == .directory { unwatchable.insert(ancestor) }
                    continue
                }
            } catch {
                fail(client, error)
                return false
            }
            let next = Self.step(from: ancestor, towards: root)
            if next == root || unwatchable.contains(next) || system.kind(next, follow: true) != .directory { return true }
            // A deeper ancestor came back before this watch landed: wait there instead.
            if !heldBefore, let node = table.held(ancestor) {
                client.sentinels.remove(node)
                release(node, kernelDropped: false)
            }
            ancestor = FileSystem.parent(root)
        }
    }

    /// The path one component below `ancestor` on the way to `path` (which lies below it).
    static func step(from ancestor: FilePath, towards path: FilePath) -> FilePath {
        guard let rest = FileSystem.relative(path, to: ancestor), let first = rest.components.first else { return path }
        return ancestor.appending(first)
    }

    /// Something appeared at `path`: a waiting root, or a directory on the way to one.
    mutating func rootCandidateAppeared(_ path: FilePath) {
        for client in clients where !client.ended {
            for index in client.roots.indices where client.roots[index].waiting {
                let root = client.roots[index].path
                guard root == path || FileSystem.relative(root, to: path) != nil else { continue }
                let kind = system.kind(root, follow: true)
                guard kind != .missing else {
                    armSentinels(client)
                    continue
                }
                client.roots[index].waiting = false
                armSentinels(client)
                client.roots[index].isFile = kind == .other
                do {
                    let found = try armRoot(client, index, mode: .reportAll)
                    client.send([FileEvent(path: root, kind: .created, isDirectory: kind == .directory)] + found)
                } catch where error.reason == .noSuchPath(kind == .other ? FileSystem.parent(root) : root) {
                    // Gone again before its watch landed (rm -rf, mkdir, rm -rf):
                    // wait on, as before.
                    client.roots[index].waiting = true
                    armSentinels(client)
                } catch {
                    fail(client, error)
                }
            }
        }
    }
}
