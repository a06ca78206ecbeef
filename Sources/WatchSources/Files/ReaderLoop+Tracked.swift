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
        var requests: [FilePath: (gitDirectory: FilePath, environment: GitConfiguration.Environment?)] = [:]
        for root in client.roots {
            if let gitDirectory = root.filter.gitDirectory { requests[root.filter.top] = (gitDirectory, root.filter.gitEnvironment) }
        }
        guard !requests.isEmpty else { return }
        client.trackedRefresh = .running
        let (id, reader, asked) = (client.id, self.reader, requests)
        let started = DetachedThread.start {
            var found: [FilePath: TrackedFiles] = [:]
            for (top, request) in asked {
                found[top] = TrackedFiles.load(top: top, gitDirectory: request.gitDirectory, environment: request.environment)
            }
            reader.learnedTracked(client: id, found)
        }
        if !started { client.trackedRefresh = .idle }
    }

    /// What git said for each repository top of client `clientID`: each
    /// root whose kept paths changed is planned anew (and its poller told).
    func learnedTracked(_ clientID: Int, _ found: [FilePath: TrackedFiles]) {
        guard let client = clients.first(where: { $0.id == clientID }), !client.ended else { return }
        let again = client.trackedRefresh == .again
        client.trackedRefresh = .idle
        for index in client.roots.indices {
            guard client.roots[index].filter.gitDirectory != nil, let files = found[client.roots[index].filter.top],
                  client.roots[index].filter.setTracked(files) else { continue }
            if let job = client.pollJobs[index] { PollScanner.shared.submit(.replaceTracked(job: job, files)) }
            let root = client.roots[index]
            guard !root.polledWhole, !root.isFile, !root.waiting, client.deafSince == nil else { continue }
            releaseIgnored(client, index, below: FilePath())
            if !client.pendingReplans.contains(where: { $0.root == index && $0.relative.isEmpty }) {
                client.pendingReplans.append((index, FilePath()))
            }
        }
        runPendingReplans()
        if again { trackedMayHaveChanged(client) }
    }
}
