import SystemPackage

/// Rule files changing while watching: what a `.gitignore`, an `.ignore`,
/// `info/exclude`, the global excludes file or an ignore file now ignores
/// is unwatched at once; what it no longer ignores is watched (and walked,
/// silently: nothing in it changed) once the kernel queue has been read.
extension ReaderLoop {
    /// Something happened to `path`: when it is a rule file of a client,
    /// re-read it and re-plan what that client watches, the polled parts
    /// of its root included. (A root polled whole follows its rule files
    /// by itself: `PollJob.followed`.)
    func ruleFileMayHaveChanged(_ path: FilePath) {
        for client in clients where !client.ended && client.deafSince == nil {
            var tracked = false
            defer { if tracked { trackedMayHaveChanged(client) } }
            for index in client.roots.indices {
                let root = client.roots[index]
                guard !root.waiting, !root.isFile, !root.polledWhole else { continue }
                // What git tracks follows its index, and the rules.
                if path == root.filter.indexFile { tracked = true }
                guard let scope = client.roots[index].filter.ruleFileChanged(path) else { continue }
                if root.filter.gitDirectory != nil { tracked = true }
                if let job = client.pollJobs[index] {
                    PollScanner.shared.submit(.replaceFilter(job: job, client.roots[index].filter))
                }
                releaseIgnored(client, index, below: scope)
                if !client.pendingReplans.contains(where: { $0.root == index && $0.relative == scope }) {
                    client.pendingReplans.append((index, scope))
                }
            }
        }
    }

    /// Releases the watched directories at or below `scope` (relative to
    /// root `index`) that the rules now ignore, parents before children.
    func releaseIgnored(_ client: WatchClient, _ index: Int, below scope: FilePath) {
        let root = client.roots[index].path
        let scopePath = root.pushing(scope)
        let candidates = client.watched.filter { FileSystem.relative($0, to: scopePath) != nil }
            .sorted { $0.components.count < $1.components.count }
        for directory in candidates where client.watched.contains(directory) {
            guard let relative = FileSystem.relative(directory, to: root), !client.wantsDirectoryRelative(index, relative) else { continue }
            table.releaseTree(directory, for: client, kernelDropped: false)
        }
    }

    /// Walks the subtrees whose rules changed, watching what they no longer ignore.
    func runPendingReplans() {
        for client in clients where !client.pendingReplans.isEmpty {
            let replans = client.pendingReplans
            client.pendingReplans.removeAll()
            guard !client.ended, client.deafSince == nil else { continue }
            for (index, relative) in replans where !client.roots[index].waiting && !client.roots[index].isFile {
                let start = client.roots[index].path.pushing(relative)
                // Only a directory that is (still) watched is walked: its parent rules decide the rest.
                guard client.watched.contains(start) else { continue }
                do {
                    _ = try walk(client, index, from: start, relative: relative, mode: .silent)
                } catch {
                    fail(client, error)
                    break
                }
            }
        }
    }
}
