import SystemPackage

/// One subscription to `FileWatcher`, as the reader machine keeps it: its
/// roots with their filters, the directories it holds in the `WatchTable`
/// (as nodes), what it waits for, and where its changes go (`sink`).
/// Made on the subscribing thread (its filters read their rule files
/// there, and git is asked what it tracks), then touched only by the
/// reader thread.
final class ReaderClient: @unchecked Sendable {
    // Safety: after `InotifyReader.add` hands it over, only the reader
    // thread reads or writes any field; before that, only its creator.

    struct Root {
        /// Absolute, normalized.
        var path: FilePath
        /// A single file is watched through its parent directory, so that
        /// replacing it atomically does not lose the watch.
        var isFile: Bool
        var filter: PathFilter
        /// True while the root is gone and `waitForReappearance` waits for it.
        var waiting = false
        /// Under `.auto`: the mounts below the root, by path (as named under
        /// the root), so the walk polls those inotify cannot see into.
        var mountPoints: [FilePath: MountTable.Mount] = [:]
        /// The whole root is polled (no inotify watch in it).
        var polledWhole = false
    }

    /// Why a client holds a watch.
    enum Hold {
        /// A directory of its tree.
        case tree
        /// A directory watched for a waiting root to come back.
        case sentinel
        /// A directory outside the tree holding a rule file (an ancestor's
        /// `.gitignore`, `info/exclude`, an ignore file).
        case rules
    }

    let id: Int
    var roots: [Root]
    let options: WatchOptions
    let sink: EventSink
    /// The directories of its trees it holds.
    var tree: Set<WatchTable.Node> = []
    /// Directories held only to notice a deleted root coming back.
    var sentinels: Set<WatchTable.Node> = []
    /// Directories outside the trees held for the rule files they hold.
    var ruleDirectories: Set<WatchTable.Node> = []
    /// Subtrees (root index, path relative to it) to walk again once the
    /// queue is read: a rule file changed, and what it no longer ignores
    /// must be watched.
    var pendingReplans: [(root: Int, relative: FilePath)] = []
    /// Editors' saves, made whole (the reader's part: the poller has its own).
    var coalescer: SaveCoalescer
    /// What was sent since the last flush (one array per kernel event).
    var outbox: [FileEvent] = []
    /// What `-v` said about changes its rules dropped (each said once).
    var ignoreMentions = IgnoreMentions()
    /// What git tracks, asked again when a rule file or git's index
    /// changes: the reader and the client's poll jobs each tell it, and
    /// each takes its answers (`TrackedFilesRefresh`).
    let trackedRefresh: TrackedFilesRefresh
    /// git asked what it tracks when the watch began, one per repository;
    /// the reader takes the answers once the trees are walked.
    var trackedLookups: [TrackedFiles.Lookup] = []
    /// The polled parts, by root index (`ReaderMachine+Polling`).
    var polling: [Int: PolledRoot] = [:]
    var ended = false
    /// A watch moving here from a service that went away: once armed, it
    /// reports what changed since the service last spoke (wall clock
    /// seconds), except the files the service already reported with the
    /// change time they still have.
    var changedSince: (since: Double, reported: [FilePath: Double])? = nil
    /// A watch moving here after the service saw a root deleted: a root
    /// missing at the start is waited for (`waitForReappearance`), as if
    /// this watch had seen it go.
    var waitsForMissingRoots = false
    /// Whether a root armed with inotify is announced as watched
    /// (`WatchNotice.Kind.inotify`, what a recipe lists as "watching"):
    /// not for a client that is part of a source that speaks for itself,
    /// as a `Tail`'s names, announced as followed.
    var announcesWatch = true

    /// What is polled of one root: its job, and the tops of the polled
    /// subtrees (or the single file) with those not yet handed to the job.
    struct PolledRoot {
        var job: Int?
        var subtrees: Set<FilePath> = []
        var pending: [PollMachine.Subtree] = []
    }

    /// `readFile` reads the roots' rule files (a virtual tree's, in a recipe's tests).
    init(id: Int, paths: [FilePath], options: WatchOptions, sink: EventSink,
         readFile: @escaping RuleFileReader = { FileSystem.readFile($0, limit: $1, followSymlinks: $2) }) {
        self.id = id
        self.options = options
        self.sink = sink
        coalescer = SaveCoalescer(holds: options.coalescesSaves)
        let roots = paths.map { Root(path: $0, isFile: false, filter: PathFilter(root: $0, options: options, readFile: readFile)) }
        self.roots = roots
        trackedRefresh = TrackedFilesRefresh(requests: TrackedFilesRefresh.requests(for: roots.map(\.filter)))
        // git says what it tracks while the reader walks the trees.
        trackedLookups = trackedRefresh.requests.map { top, request in
            TrackedFiles.Lookup(top: top, gitDirectory: request.gitDirectory, environment: request.environment, within: request.within)
        }
    }

    /// Every node this client holds, for whatever reason.
    var allHeld: [WatchTable.Node] { Array(tree) + Array(sentinels) + Array(ruleDirectories) }

    func holds(_ node: WatchTable.Node, as hold: Hold) -> Bool {
        switch hold {
        case .tree: return tree.contains(node)
        case .sentinel: return sentinels.contains(node)
        case .rules: return ruleDirectories.contains(node)
        }
    }

    func insert(_ node: WatchTable.Node, as hold: Hold) {
        switch hold {
        case .tree: tree.insert(node)
        case .sentinel: sentinels.insert(node)
        case .rules: ruleDirectories.insert(node)
        }
    }

    /// Queues events for the next flush.
    func send(_ events: [FileEvent]) {
        guard !ended else { return }
        outbox += events
    }

    /// What was sent since the last flush, taken.
    func takeOutbox() -> [FileEvent] {
        defer { outbox.removeAll(keepingCapacity: outbox.count <= 1024) }
        return outbox
    }

    // MARK: What it reports

    /// The root index and relative path of `path`, if this client covers
    /// it (the empty path for a root itself).
    func locate(_ path: FilePath) -> (root: Int, relative: FilePath)? {
        for (index, root) in roots.enumerated() where !root.waiting {
            if root.isFile {
                if path == root.path { return (index, FilePath()) }
            } else if let relative = Self.relative(path, to: root.path) {
                return (index, relative)
            }
        }
        return nil
    }

    /// `path` below `root` by comparing bytes (what every event pays; the
    /// same answer as `FileSystem.relative` for absolute, normalized paths).
    private static func relative(_ path: FilePath, to root: FilePath) -> FilePath? {
        root.withBytes { rootBytes in
            path.withBytes { bytes -> FilePath? in
                if rootBytes.count == 1, rootBytes[0] == UInt8(ascii: "/") {
                    return bytes.count > 1 ? FilePath(bytes: bytes.dropFirst()) : FilePath()
                }
                guard bytes.count >= rootBytes.count, bytes.starts(with: rootBytes) else { return nil }
                if bytes.count == rootBytes.count { return FilePath() }
                guard bytes[rootBytes.count] == UInt8(ascii: "/") else { return nil }
                return FilePath(bytes: bytes[(rootBytes.count + 1)...])
            }
        }
    }

    /// Whether `path`, found in the watched `directory` (a node), is a
    /// directory this client wants watched. Only a directory in one of its
    /// own watched directories can be: a watch is shared, and another
    /// client may watch a directory this one ignores.
    func wantsDirectory(_ path: FilePath, in directory: WatchTable.Node) -> Bool {
        guard tree.contains(directory), let (index, relative) = locate(path), !roots[index].isFile else { return false }
        return roots[index].filter.watchesDirectory(relative)
    }

    /// Whether the directory at `relative` below root `index` is wanted.
    func wantsDirectoryRelative(_ index: Int, _ relative: FilePath) -> Bool {
        roots[index].filter.watchesDirectory(relative)
    }

    /// Whether a change of `path`, read from the watch on `directory`, is
    /// reported to this client: that directory is one of its own (not one
    /// only another client watches; nil skips the check), and its root's
    /// filter reports the path.
    func reports(_ path: FilePath, in directory: WatchTable.Node?, isDirectory: Bool) -> Bool {
        if let directory, !tree.contains(directory) { return false }
        guard let (index, relative) = locate(path) else { return false }
        return roots[index].filter.reports(relative, isDirectory: isDirectory)
    }

    /// Which rule keeps a change of `path`, read from the watch on
    /// `directory`, from this client (for `-v`); nil when none does or the
    /// directory is not its own.
    func dropReason(_ path: FilePath, in directory: WatchTable.Node, isDirectory: Bool) -> IgnoreReason? {
        guard tree.contains(directory), let (index, relative) = locate(path) else { return nil }
        return roots[index].filter.ignoreReason(relative, isDirectory: isDirectory)
    }

    /// The root whose path is exactly `path`.
    func rootIndex(of path: FilePath) -> Int? {
        roots.firstIndex { $0.path == path && !$0.waiting }
    }
}
