import SystemPackage

/// What git tracks, learned again when git's index or a rule file
/// changes: git runs on a thread of its own (`TrackedFiles.load`), never
/// on the reader's, and its answer comes back as a command. A client has
/// at most one such run going; what changes meanwhile asks for one more.
extension ReaderLoop {
    /// git's index or a rule file of `client` changed: asks git again what
    /// it tracks among the paths its rules ignore.
    func trackedMayHaveChanged(_ client: WatchClient) {
        guard !client.ended else { return }
        guard client.trackedRefresh == .idle else {
            client.trackedRefresh = .again
            return
        }
        let requests = client.trackedRequests
        guard !requests.isEmpty else { return }
        client.trackedRefresh = .running
        let (id, reader, asked) = (client.id, self.reader, requests)
        let started = DetachedThread.start {
            var found: [FilePath: TrackedFiles] = [:]
            for (top, request) in asked {
                found[top] = TrackedFiles.load(top: top, gitDirectory: request.gitDirectory, environment: request.environment,
                                               within: request.within)
            }
            reader.learnedTracked(client: id, found)
        }
        if !started { client.trackedRefresh = .idle }
    }

    /// What git said for each repository top of client `clientID`.
    func learnedTracked(_ clientID: Int, _ found: [FilePath: TrackedFiles]) {
        guard let client = clients.first(where: { $0.id == clientID }), !client.ended else { return }
        let again = client.trackedRefresh == .again
        client.trackedRefresh = .idle
        take(found, for: client)
        if again { trackedMayHaveChanged(client) }
    }

    /// What git said when the watch began (`WatchClient.trackedLookups`,
    /// asked while the trees were walked): taken before the watch is armed.
    func takeFirstTracked(_ client: WatchClient) {
        var found: [FilePath: TrackedFiles] = [:]
        for lookup in client.trackedLookups { found[lookup.top] = lookup.wait() }
        client.trackedLookups = []
        take(found, for: client)
    }

    /// Gives each root of `client` what git tracks in its repository; a
    /// root whose kept paths changed is planned anew where they lie (and
    /// its poller told).
    private func take(_ found: [FilePath: TrackedFiles], for client: WatchClient) {
        for index in client.roots.indices {
            guard client.roots[index].filter.gitDirectory != nil, let files = found[client.roots[index].filter.top] else { continue }
            let changed = client.roots[index].filter.tracked.paths.symmetricDifference(files.paths)
            guard client.roots[index].filter.setTracked(files) else { continue }
            if let job = client.pollJobs[index] { PollScanner.shared.submit(.replaceTracked(job: job, files)) }
            let root = client.roots[index]
            guard !root.polledWhole, !root.isFile, !root.waiting, client.deafSince == nil else { continue }
            for scope in trackedScopes(client.roots[index].filter, changed) {
                // Unwatched what it no longer keeps, watched what it now keeps (silently: nothing changed).
                releaseIgnored(client, index, below: scope)
                let path = root.path.pushing(scope)
                guard client.wantsDirectoryRelative(index, scope), client.watched.contains(FileSystem.parent(path)) else { continue }
                do {
                    _ = try walk(client, index, from: path, relative: scope, mode: .silent)
                } catch {
                    return fail(client, error)
                }
            }
        }
    }

    /// Where what is watched may change when the tracked files `changed`
    /// (paths from the top) come or go: at and below the shallowest
    /// directory on each one's way that git's rules ignore, watched only
    /// for what git tracks in it. (With none ignored, only whether the
    /// file itself is reported changes.)
    private func trackedScopes(_ filter: PathFilter, _ changed: Set<[UInt8]>) -> [FilePath] {
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
