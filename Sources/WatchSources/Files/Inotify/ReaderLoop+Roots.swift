import Glibc
import SystemPackage

/// Roots that are deleted or moved away: end the client, or wait for them
/// with a sentinel watch on the deepest existing ancestor.
extension ReaderLoop {
    /// A watched directory reported its own deletion or move.
    func directoryVanished(_ directory: FilePath, moved: Bool) {
        for client in clients {
            for index in client.roots.indices where !client.roots[index].waiting {
                let root = client.roots[index]
                let hit = root.isFile ? FileSystem.parent(root.path) == directory : root.path == directory
                if hit { rootLost(client, index, announced: false, kernelDropped: !moved) }
            }
            // A directory of rule files went: its watch is gone with it.
            if client.ruleDirectories.contains(directory) {
                client.ruleDirectories.remove(directory)
                table.release(directory, kernelDropped: !moved)
            }
            // A directory watched for a waiting root's return went too: look higher up.
            if client.sentinels.contains(directory), !client.ended {
                if !moved { table.markGone(directory) }
                armSentinels(client)
            }
        }
    }

    /// Root `index` of `client` is gone: report it, then end or wait.
    func rootLost(_ client: WatchClient, _ index: Int, announced: Bool, kernelDropped: Bool = false) {
        guard !client.ended, !client.roots[index].waiting else { return }
        let root = client.roots[index]
        if !announced {
            client.send(client.coalescer.expire(now: .infinity))
            client.send([FileEvent(path: root.path, kind: .deleted, isDirectory: !root.isFile)])
        }
        let watchedRoot = root.isFile ? FileSystem.parent(root.path) : root.path
        stopPolling(client, under: root.path)
        if root.isFile {
            if FileSystem.kind(watchedRoot) == .directory, client.options.onRootDeleted == .waitForReappearance {
                client.roots[index].waiting = true
                do { try table.acquire(watchedRoot, for: client, as: .sentinel) } catch { fail(client, error) }
                return
            }
        }
        table.releaseTree(watchedRoot, for: client, kernelDropped: kernelDropped)
        guard client.options.onRootDeleted == .waitForReappearance else {
            return fail(client, FileWatchError(.rootDeleted(root.path)))
        }
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
    func armSentinels(_ client: WatchClient) {
        for sentinel in client.sentinels { table.release(sentinel, kernelDropped: false) }
        client.sentinels.removeAll()
        var reappeared: [FilePath] = []
        for root in client.roots where root.waiting {
            // Directories that cannot be watched (no permission): waited above, never descended into.
            var unwatchable: Set<FilePath> = []
            var ancestor = FileSystem.parent(root.path)
            while true {
                // Ancestors may be vanishing while we look (rm -rf in progress): climb until one holds.
                while ancestor != "/", unwatchable.contains(ancestor) || FileSystem.kind(ancestor, follow: true) != .directory {
                    ancestor = FileSystem.parent(ancestor)
                }
                let heldBefore = client.sentinels.contains(ancestor)
                do {
                    guard try table.acquire(ancestor, for: client, as: .sentinel) else {
                        if ancestor == "/" { break }
                        // Gone meanwhile (the climb goes on above it), or there but not watchable.
                        if FileSystem.kind(ancestor, follow: true) == .directory { unwatchable.insert(ancestor) }
                        continue
                    }
                } catch {
                    return fail(client, error)
                }
                let next = Self.step(from: ancestor, towards: root.path)
                if next == root.path || unwatchable.contains(next) || FileSystem.kind(next, follow: true) != .directory { break }
                // A deeper ancestor came back before this watch landed: wait there instead.
                if !heldBefore {
                    client.sentinels.remove(ancestor)
                    table.release(ancestor, kernelDropped: false)
                }
                ancestor = FileSystem.parent(root.path)
            }
            // It may have come back before the sentinel landed.
            if FileSystem.kind(root.path, follow: true) != .missing { reappeared.append(root.path) }
        }
        for path in reappeared { rootCandidateAppeared(path) }
    }

    /// The path one component below `ancestor` on the way to `path` (which lies below it).
    static func step(from ancestor: FilePath, towards path: FilePath) -> FilePath {
        guard let rest = FileSystem.relative(path, to: ancestor), let first = rest.components.first else { return path }
        return ancestor.appending(first)
    }

    /// Something appeared at `path`: a waiting root, or a directory on the way to one.
    func rootCandidateAppeared(_ path: FilePath) {
        for client in clients where !client.ended {
            for index in client.roots.indices where client.roots[index].waiting {
                let root = client.roots[index].path
                guard root == path || FileSystem.relative(root, to: path) != nil else { continue }
                switch FileSystem.kind(root, follow: true) {
                case .missing:
                    armSentinels(client)
                case let kind:
                    client.roots[index].waiting = false
                    armSentinels(client)
                    client.roots[index].isFile = kind == .other
                    do {
                        let found = try armRoot(client, index, mode: .reportAll)
                        client.send([FileEvent(path: root, kind: .created, isDirectory: kind == .directory)] + found)
                    } catch {
                        fail(client, error)
                    }
                }
            }
        }
    }

}
