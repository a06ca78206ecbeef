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
    let observer: Observer<FileEvent>
    /// Directories this client holds a watch reference on.
    var watched: Set<FilePath> = []
    /// Directories watched only to notice a deleted root coming back.
    var sentinels: Set<FilePath> = []
    var coalescer = SaveCoalescer()
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

    init(id: Int, paths: [FilePath], options: WatchOptions, observer: Observer<FileEvent>) {
        self.id = id
        self.options = options
        self.observer = observer
        let filter = PathFilter(options)
        roots = paths.map { Root(path: $0, isFile: false, filter: filter) }
    }

    /// The root index and relative path of `path`, if this client covers
    /// it. The relative path is text for the filter's globs and ignore
    /// rules (`matchingText`), never a path to hand on.
    func locate(_ path: FilePath) -> (root: Int, relative: String)? {
        for (index, root) in roots.enumerated() where !root.waiting {
            if root.isFile {
                if path == root.path { return (index, "") }
            } else if let relative = FileSystem.relativeText(path, to: root.path) {
                return (index, relative)
            }
        }
        return nil
    }

    /// Whether `path` is a directory this client wants watched.
    func wantsDirectory(_ path: FilePath) -> Bool {
        guard let (index, relative) = locate(path), !roots[index].isFile else { return false }
        return roots[index].filter.watchesDirectory(relative)
    }

    /// Whether a change of `path` is reported to this client.
    func reports(_ path: FilePath, isDirectory: Bool) -> Bool {
        guard let (index, relative) = locate(path) else { return false }
        return roots[index].filter.reports(relative, isDirectory: isDirectory)
    }

    /// The root whose path is exactly `path`.
    func rootIndex(of path: FilePath) -> Int? {
        roots.firstIndex { $0.path == path && !$0.waiting }
    }

    /// Re-reads the ignore files of directory `directory` when it is in this client's tree.
    func reloadIgnoreFiles(in directory: FilePath) {
        guard let (index, relative) = locate(directory), !roots[index].isFile else { return }
        roots[index].filter.loadIgnoreFiles(in: directory, relativePath: relative)
    }

    /// Delivers events, unless ended or (in tests) deafened.
    func send(_ events: [FileEvent]) {
        guard !ended, deafSince == nil else { return }
        for event in events { observer.sendNext(event) }
    }
}
