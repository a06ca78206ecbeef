import Signals
import SystemPackage

/// One subscription to `FileWatcher`: its roots with their filters, the
/// directories it holds watches on, and where its events go. Created on the
/// subscribing thread, then touched only by `InotifyReader`'s thread.
final class WatchClient: @unchecked Sendable {
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

    let id: Int
    var roots: [Root]
    let options: WatchOptions
    /// Receives one array per read of the kernel queue (`flush()`).
    let observer: Observer<[FileEvent]>
    /// Directories this client holds a watch reference on.
    var watched = PathSet()
    /// Directories watched only to notice a deleted root coming back.
    var sentinels: Set<FilePath> = []
    /// Directories outside the trees watched for the rule files they hold.
    var ruleDirectories: Set<FilePath> = []
    /// Subtrees (root index, path relative to it) to walk again once the
    /// queue is read: a rule file changed, and what it no longer ignores
    /// must be watched.
    var pendingReplans: [(root: Int, relative: FilePath)] = []
    var coalescer: SaveCoalescer
    /// Whether git is being asked what it tracks (`ReaderLoop+Tracked`),
    /// and whether something changed since it was asked.
    enum TrackedRefresh { case idle, running, again }
    var trackedRefresh = TrackedRefresh.idle
    /// git asked what it tracks when the watch began, one per repository;
    /// `ReaderLoop.arm` takes the answers once the trees are walked.
    var trackedLookups: [TrackedFiles.Lookup] = []
    /// The poll job of each root that has polled parts, by root index.
    var pollJobs: [Int: Int] = [:]
    /// What is polled, by root index: the tops of the polled subtrees (or the single file).
    var polledSubtrees: [Int: Set<FilePath>] = [:]
    /// Subtrees found during a walk, handed to the poller once it is done.
    var pendingPolls: [Int: [PollJob.Subtree]] = [:]
    /// Tests only: while set, this client reads nothing (no events, no
    /// watch bookkeeping), as if the kernel queue had overflowed.
    var deafSince: Double? = nil
    var ended = false

    init(id: Int, paths: [FilePath], options: WatchOptions, observer: Observer<[FileEvent]>) {
        self.id = id
        self.options = options
        self.observer = observer
        self.coalescer = SaveCoalescer(holds: options.coalescesSaves)
        roots = paths.map { Root(path: $0, isFile: false, filter: PathFilter(root: $0, options: options)) }
        watchBudget = WatchSeams.watchBudget(for: paths)
        // git says what it tracks while the reader walks the trees.
        trackedLookups = trackedRequests.map { top, request in
            TrackedFiles.Lookup(top: top, gitDirectory: request.gitDirectory, environment: request.environment, within: request.within)
        }
    }

    /// What to ask git about each repository holding a root: its git
    /// directory, the environment, and the roots below its top.
    var trackedRequests: [FilePath: (gitDirectory: FilePath, environment: GitConfiguration.Environment?, within: [FilePath])] {
        var requests: [FilePath: (gitDirectory: FilePath, environment: GitConfiguration.Environment?, within: [FilePath])] = [:]
        for root in roots {
            guard let gitDirectory = root.filter.gitDirectory else { continue }
            requests[root.filter.top, default: (gitDirectory, root.filter.gitEnvironment, [])].within.append(root.filter.prefix)
        }
        return requests
    }

    /// Tests (`WatchSeams.limitWatches`): the most watches this client may hold.
    let watchBudget: Int?

    /// Every directory this client holds a watch on, for whatever reason.
    var allHeld: Set<FilePath> { Set(watched).union(sentinels).union(ruleDirectories) }

    func holds(_ directory: FilePath, as hold: WatchTable.Hold) -> Bool {
        switch hold {
        case .tree: return watched.contains(directory)
        case .sentinel: return sentinels.contains(directory)
        case .rules: return ruleDirectories.contains(directory)
        }
    }

    func insert(_ directory: FilePath, as hold: WatchTable.Hold) {
        switch hold {
        case .tree: watched.insert(directory)
        case .sentinel: sentinels.insert(directory)
        case .rules: ruleDirectories.insert(directory)
        }
    }

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

    /// Whether `path`, found in the watched `directory`, is a directory this
    /// client wants watched. Only a directory in one of its own watched
    /// directories can be: a watch is shared, and another client may watch
    /// a directory this one ignores.
    func wantsDirectory(_ path: FilePath, in directory: FilePath) -> Bool {
        guard watched.contains(directory), let (index, relative) = locate(path), !roots[index].isFile else { return false }
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
    func reports(_ path: FilePath, in directory: FilePath?, isDirectory: Bool) -> Bool {
        if let directory, !watched.contains(directory) { return false }
        guard let (index, relative) = locate(path) else { return false }
        return roots[index].filter.reports(relative, isDirectory: isDirectory)
    }

    /// Under `-v` (a `Diagnostics` sink installed), says which rule dropped
    /// a change of `path`; one atomic load otherwise.
    func noteDropped(_ path: FilePath, in directory: FilePath, isDirectory: Bool) {
        guard Diagnostics.isEnabled, watched.contains(directory), let (index, relative) = locate(path),
              let reason = roots[index].filter.ignoreReason(relative, isDirectory: isDirectory) else { return }
        Diagnostics.verbose("ignored \(Quoted.path(path)): \(reason)")
    }

    /// The root whose path is exactly `path`.
    func rootIndex(of path: FilePath) -> Int? {
        roots.firstIndex { $0.path == path && !$0.waiting }
    }

    /// Events sent since the last `flush()`.
    private var outbox: [FileEvent] = []

    /// Queues events of the kinds asked for, for the next `flush()`, unless
    /// ended or (in tests) deafened. Asked for modifications but not
    /// renames, a file renamed onto a path is a modification of that path:
    /// new contents arrived there whole (a save through a temporary name).
    func send(_ events: [FileEvent]) {
        guard !ended, deafSince == nil else { return }
        for event in events {
            if event.kind == .overflow || options.kinds.contains(event.kind) {
                outbox.append(event)
            } else if event.kind == .movedTo, !event.isDirectory, options.kinds.contains(.modified) {
                outbox.append(FileEvent(path: event.path, kind: .modified))
            }
        }
    }

    /// Delivers what was sent since the last flush as one value: the
    /// reader flushes after each kernel event it handles, so that what one
    /// event brings (a save the coalescer releases whole, a directory that
    /// appeared with what a scan found in it) stays together downstream.
    func flush() {
        guard !outbox.isEmpty else { return }
        let events = outbox
        outbox.removeAll(keepingCapacity: outbox.count <= 1024)
        guard !ended else { return }
        observer.sendNext(events)
    }
}
