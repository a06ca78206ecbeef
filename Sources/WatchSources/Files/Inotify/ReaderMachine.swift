import Glibc
import SystemPackage

/// Everything the inotify reader decides, as a value: which directories
/// each subscription watches (one `WatchTable` for all of them), what an
/// inotify record means (a rename's two halves paired, a directory that
/// appeared walked, a deleted root waited for, a rule file re-read), and
/// what each subscriber is sent. It owns no thread, no descriptor and no
/// clock: time comes with each input, the file system is asked through a
/// `ReaderSystem` (a listing, a `stat`, adding or removing a watch: what
/// a decision needs the answer to, in the order the decision needs it),
/// and what only needs doing comes back as `Action`s for `ReaderLoop` to
/// carry out. Tests drive it with an in-memory tree.
///
/// The inputs: `add`/`remove` a client, `read` records, `queueEmpty`,
/// `deadlinePassed`, `quiet`, `mountsChanged`, and `learnedTracked` (what
/// git tracks, from the client's `TrackedFilesRefresh`). Each returns
/// what to do, in order. Nothing comes from the poller: a poll job
/// delivers to the client's sink, and tells the client's
/// `TrackedFilesRefresh`, itself. It has no test hook: tests bend the
/// world it is given (`SeamedReaderSystem`, the in-memory tree).
struct ReaderMachine<System: ReaderSystem> {
    /// What the loop does for the machine.
    enum Action {
        /// Delivers what one input brought a subscriber, as one array.
        case send([FileEvent], to: EventSink)
        /// Ends a subscription with an error.
        case fail(FileWatchError, to: EventSink)
        case announce(WatchNotice)
        /// Names the processes holding the most inotify watches, once per
        /// process (`FileWatcher.announceWatchHolders`), as they were when
        /// the watches ran out.
        case announceWatchHolders(about: FilePath, String)
        /// A line for `-v` (`Diagnostics.verbose`).
        case verbose(String)
        /// A command for the poller.
        case poll(PollScanner.Command)
        /// Tells a client's `TrackedFilesRefresh` that what git tracks
        /// may have changed: it asks git on a thread of its own, and the
        /// answer comes back as `learnedTracked` (and goes to the
        /// client's poll jobs too).
        case trackedMayHaveChanged(TrackedFilesRefresh)
        /// Stops a client's `TrackedFilesRefresh`: the client ended.
        case stopTracked(TrackedFilesRefresh)
    }

    /// A rename's first half, waiting for its second.
    struct PendingMove {
        var path: FilePath
        /// The watched directory it left, and its path.
        var directory: WatchTable.Node
        var directoryPath: FilePath
        var isDirectory: Bool
        var cookie: UInt32
        /// When it was read (monotonic seconds).
        var readAt: Double
    }

    /// How long (seconds) a rename's `IN_MOVED_FROM` waits for its
    /// `IN_MOVED_TO` once the queue is empty. The kernel queues the two
    /// halves one after the other inside one `rename(2)`, but not
    /// atomically (inotify(7)): a reader woken by the first can read it
    /// alone while the renaming thread (or its virtual CPU) is held up
    /// between the two. Taken for a move out of the tree, such a rename
    /// split an editor's save in two runs (JetBrains' safe write, vim's
    /// backup rename). Costs a move that really leaves the tree this much
    /// latency; nothing else waits.
    static var moveHalfGrace: Double { 0.1 }

    /// How the machine sees the file system and the kernel's watches.
    var system: System
    var table = WatchTable()
    var clients: [ReaderClient] = []
    var pendingMoves: [PendingMove] = []
    /// When the wait for the halves of `pendingMoves` ends (one grace per
    /// emptying of the queue, however many records trickle in).
    var graceEnds: Double? = nil
    /// Paths a scan just reported; their own create records, read later, are duplicates.
    var scanned = PathSet()
    /// Directories that refused a watch though there (no permission): each
    /// is warned about once, and tried again when its attributes change (a
    /// `chmod`, heard by its parent's watch: `retryRefused`).
    var refused = PathSet()
    /// The directory of the last record, reused while records come from it.
    var lastDirectory: (node: WatchTable.Node, path: FilePath)? = nil
    /// When the kernel queue was last seen empty (wall clock): an overflow
    /// lost only the changes after it.
    var lastIdle: Double
    /// Why no inotify instance could be made; then nothing may be watched.
    var startError: FileWatchError? = nil
    /// `fs.inotify.max_user_instances`, read when no instance could be made.
    var instanceLimit = 0
    /// The last poll job made (each has its own number).
    var nextJobID = 0
    /// What the input under way has decided to do.
    var actions: [Action] = []

    /// The number of the reader it decides for (`InotifyReader.number`):
    /// its poll jobs' ids start at `reader << 32`, as the poller serves
    /// every reader.
    let reader: Int

    init(system: System, now: ReaderTime, reader: Int = 0) {
        self.system = system
        self.reader = reader
        nextJobID = reader << 32
        lastIdle = now.wall
    }

    /// The earliest moment the machine wants to be woken without news
    /// (`deadlinePassed`, `quiet`), if any.
    var nextDeadline: Double? {
        clients.compactMap(\.coalescer.nextDeadline).min()
    }

    /// Whether a scan's paths are remembered (the loop then wakes for `quiet`).
    var remembersScanned: Bool { !scanned.isEmpty }

    /// The actions decided so far, taken.
    mutating func takeActions() -> [Action] {
        flush()
        defer { actions.removeAll() }
        return actions
    }

    /// Hands every client what the input so far brought it, as one array each.
    mutating func flush() {
        for client in clients where !client.outbox.isEmpty {
            actions.append(.send(client.takeOutbox(), to: client.sink))
        }
    }

    /// The path of the held directory `node` (the last one asked, cached).
    mutating func directoryPath(_ node: WatchTable.Node) -> FilePath {
        if let last = lastDirectory, last.node == node { return last.path }
        let path = table.path(of: node)
        lastDirectory = (node, path)
        return path
    }

    // MARK: Holding watches

    /// Makes `client` hold a watch on `directory`; false when the directory
    /// vanished first or refused a watch. A root's failure, and running out
    /// of watches, throw.
    @discardableResult
    mutating func acquire(_ directory: FilePath, for client: ReaderClient, isRoot: Bool = false,
                          as hold: ReaderClient.Hold = .tree) throws(FileWatchError) -> Bool
    {
        let existing = table.held(directory)
        if let existing, client.holds(existing, as: hold) { return true }
        let node: WatchTable.Node
        if let existing {
            table.hold(existing)
            node = existing
        } else {
            guard startError == nil else { throw FileWatchError(.inotifyUnavailable(errno: EBADF)) }
            switch system.watch(directory) {
            case .watching(let wd):
                node = table.add(directory, wd: wd)
                if !refused.isEmpty { refused.remove(directory) }
            case .failed(let code) where code == ENOSPC:
                // Under `.inotify` this ends the watch: say first whose watches filled the budget.
                // Read now, while this subscription still holds its watches.
                if case .inotify = client.options.backend, let holders = system.watchHolders() {
                    actions.append(.announceWatchHolders(about: directory, holders))
                }
                throw FileWatchError(.watchLimit(path: directory, limit: system.watchLimit()))
            case .failed(let code):
                if isRoot { throw FileWatchError(code == ENOENT ? .noSuchPath(directory) : .cannotWatch(path: directory, errno: code)) }
                if code != ENOENT, code != ENOTDIR, refused.insert(directory) {
                    // There, but refused (no permission, a path longer than
                    // PATH_MAX): say so once, rather than see nothing below it.
                    warnUnwatchable(directory, code)
                }
                return false
            }
        }
        client.insert(node, as: hold)
        return true
    }

    /// The one warning for a directory that refused a watch.
    private mutating func warnUnwatchable(_ directory: FilePath, _ code: Int32) {
        actions.append(.announce(WatchNotice(path: directory, kind: .warning(
            "cannot watch \(Quoted.path(directory)): \(Errno(rawValue: code).description); changes below it are not seen"))))
    }

    /// Drops one hold on `node`; the last one removes the watch from the
    /// kernel, unless the kernel dropped it already.
    mutating func release(_ node: WatchTable.Node, kernelDropped: Bool) {
        lastDirectory = nil
        if kernelDropped { table.markGone(node) }
        if let wd = table.release(node) { system.unwatch(wd) }
    }

    /// Releases the directories `client` holds in its trees at or below `path`.
    mutating func releaseTree(_ path: FilePath, for client: ReaderClient, kernelDropped: Bool) {
        guard let top = table.lookup(path) else { return }
        for node in table.subtree(top) where client.tree.contains(node) {
            client.tree.remove(node)
            release(node, kernelDropped: kernelDropped)
        }
    }

    /// Releases every directory at or below `path`, for every client, and
    /// stops polling what lies there.
    mutating func releaseTree(_ path: FilePath, kernelDropped: Bool) {
        for client in clients {
            releaseTree(path, for: client, kernelDropped: kernelDropped)
            stopPolling(client, under: path)
        }
    }
}

/// An input's moment on both clocks: the monotonic one for deadlines, the
/// wall clock to compare with files' times.
struct ReaderTime {
    var monotonic: Double
    var wall: Double

    /// Now, on both clocks.
    static func now() -> ReaderTime {
        ReaderTime(monotonic: Clocks.monotonic(), wall: Clocks.wall())
    }
}
