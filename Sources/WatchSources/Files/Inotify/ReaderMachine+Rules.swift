import SystemPackage

/// Rule files changing while watching: what a `.gitignore`, an `.ignore`,
/// `info/exclude`, the global excludes file or an ignore file now ignores
/// is unwatched at once; what it no longer ignores is watched (and walked,
/// silently: nothing in it changed) once the kernel queue has been read.
/// And what git tracks, learned again when git's index or a rule file
/// changes: the client's `TrackedFilesRefresh` is told
/// (`Action.trackedMayHaveChanged`) and runs git on a thread of its own,
/// never on the reader's, one run at a time; its answer comes back as
/// `learnedTracked`. The client's poll jobs take the same answers from it
/// themselves.
extension ReaderMachine {
    /// Something happened to `path`: when it is a rule file of a client,
    /// re-read it and re-plan what that client watches, the polled parts
    /// of its root included. (A root polled whole follows its rule files
    /// by itself: `PollJob.followed`.)
    mutating func ruleFileMayHaveChanged(_ path: FilePath) {
        for client in clients where !client.ended {
            var tracked = false
            for index in client.roots.indices {
                let root = client.roots[index]
                guard !root.waiting, !root.isFile, !root.polledWhole else { continue }
                // What git tracks follows its index, and the rules.
                if path == root.filter.indexFile { tracked = true }
                guard let scope = client.roots[index].filter.ruleFileChanged(path) else { continue }
                if root.filter.gitDirectory != nil { tracked = true }
                if let job = client.polling[index]?.job {
                    actions.append(.poll(.replaceFilter(job: job, client.roots[index].filter)))
                }
                releaseIgnored(client, index, below: scope)
                if !client.pendingReplans.contains(where: { $0.root == index && $0.relative == scope }) {
                    client.pendingReplans.append((index, scope))
                }
            }
            if tracked { trackedMayHaveChanged(client) }
        }
    }

    /// Releases the watched directories at or below `scope` (relative to
    /// root `index`) that the rules now ignore, parents before children.
    mutating func releaseIgnored(_ client: ReaderClient, _ index: Int, below scope: FilePath) {
        let root = client.roots[index].path
        guard let top = table.lookup(root.pushing(scope)) else { return }
        // The table lists parents before their children.
        let candidates = table.subtree(top).filter { client.tree.contains($0) }
        for node in candidates where client.tree.contains(node) {
            let directory = table.path(of: node)
            guard let relative = FileSystem.relative(directory, to: root), !client.wantsDirectoryRelative(index, relative) else { continue }
            releaseTree(directory, for: client, kernelDropped: false)
        }
    }

    /// Walks the subtrees whose rules changed, watching what they no longer ignore.
    mutating func runPendingReplans() {
        for client in clients where !client.pendingReplans.isEmpty {
            let replans = client.pendingReplans
            client.pendingReplans.removeAll()
            guard !client.ended else { continue }
            for (index, relative) in replans where !client.roots[index].waiting && !client.roots[index].isFile {
                let start = client.roots[index].path.pushing(relative)
                // Only a directory that is (still) watched is walked: its parent rules decide the rest.
                guard let node = table.held(start), client.tree.contains(node) else { continue }
                do {
                    _ = try walk(client, index, from: start, relative: relative, mode: .silent)
                } catch {
                    fail(client, error)
                    break
                }
            }
        }
    }

    // MARK: What git tracks

    /// git's index or a rule file of `client` changed: git is asked again
    /// what it tracks among the paths its rules ignore (by the client's
    /// `TrackedFilesRefresh`, which runs one git at a time).
    mutating func trackedMayHaveChanged(_ client: ReaderClient) {
        guard !client.ended else { return }
        actions.append(.trackedMayHaveChanged(client.trackedRefresh))
    }

    /// What git said for each repository top of client `clientID`.
    mutating func learnedTracked(_ clientID: Int, _ found: [FilePath: TrackedFiles]) -> [Action] {
        guard let client = clients.first(where: { $0.id == clientID }), !client.ended else { return takeActions() }
        take(found, for: client)
        return takeActions()
    }

    /// Gives each root of `client` what git tracks in its repository; a
    /// root whose kept paths changed is planned anew where they lie. (Its
    /// poll job, if any, takes the same answer from the client's
    /// `TrackedFilesRefresh` itself.)
    mutating func take(_ found: [FilePath: TrackedFiles], for client: ReaderClient) {
        for index in client.roots.indices {
            guard client.roots[index].filter.gitDirectory != nil, let files = found[client.roots[index].filter.top] else { continue }
            let changed = client.roots[index].filter.tracked.paths.symmetricDifference(files.paths)
            guard client.roots[index].filter.setTracked(files) else { continue }
            let root = client.roots[index]
            guard !root.polledWhole, !root.isFile, !root.waiting else { continue }
            for scope in Self.trackedScopes(client.roots[index].filter, changed) {
                guard replan(client, index, scope) else { return }
            }
        }
    }

    /// Unwatches what root `index` no longer keeps at and below `scope`,
    /// and watches what it now keeps (silently: nothing changed); false
    /// when the client failed.
    private mutating func replan(_ client: ReaderClient, _ index: Int, _ scope: FilePath) -> Bool {
        releaseIgnored(client, index, below: scope)
        let path = client.roots[index].path.pushing(scope)
        guard client.wantsDirectoryRelative(index, scope), let parent = table.held(FileSystem.parent(path)),
              client.tree.contains(parent) else { return true }
        do {
            _ = try walk(client, index, from: path, relative: scope, mode: .silent)
        } catch {
            fail(client, error)
            return false
        }
        return true
    }

    /// Where what is watched may change when the tracked files `changed`
    /// (paths from the top) come or go: at and below the shallowest
    /// directory on each one's way that git's rules ignore, watched only
    /// for what git tracks in it. (With none ignored, only whether the
    /// file itself is reported changes.)
    static func trackedScopes(_ filter: PathFilter, _ changed: Set<[UInt8]>) -> [FilePath] {
        var scopes: Set<FilePath> = []
        for path in changed {
            guard let relative = filter.belowRoot(path) else { continue }
            var directory = FilePath()
            for component in FilePath(bytes: relative).components.dropLast() {
                directory.append(component)
                if filter.gitDecision(directory, isDirectory: true)?.ignores == true {
                    scopes.insert(directory)
                    break
                }
            }
        }
        return Array(scopes)
    }
}
