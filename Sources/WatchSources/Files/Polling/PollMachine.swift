import Glibc
import SystemPackage

/// Everything polling decides for one watched root of one subscription:
/// its subtrees (the whole root, a network mount inside it, or
/// directories that found no inotify watch), their snapshots, the filter,
/// and what each pass found that changed. It owns no thread, no clock and
/// no descriptor: times come with each input, the file system is asked
/// through a `PollSystem` (a listing, a `stat`: only what a decision needs,
/// in the order it needs it, so that a pass costs the system calls alone),
/// and what is to be sent comes back as `Action`s for `PollJob` to carry
/// out. Tests drive it with an in-memory tree.
///
/// A pass is `beginPass`, then `step` until it returns nil (one directory
/// each, so that what a directory shows goes out as soon as it is
/// scanned), then `endPass`. Between passes: `add`/`remove` a subtree,
/// `replace` the filter, `replaceTracked`. What the save rule holds goes
/// out at a pass's end (`endPass`).
///
/// A reference, not a value: the scan of a directory (`DirectoryScan`)
/// updates the machine's snapshots in place while it lists. Only the poll
/// thread touches it (through its `PollJob`).
final class PollMachine {
    /// What the machine's owner does for it.
    enum Action {
        /// Delivers changes to the subscription, as one array.
        case send([FileEvent])
        /// Ends the subscription: the client's root (directory or single
        /// file) is gone, its deletions went out before, and the client
        /// asked to fail then (`WatchOptions.onRootDeleted`). A client that
        /// waits gets nothing: the job keeps looking for the root to come
        /// back.
        case fail(FileWatchError)
        /// A rule file or git's index in the polled part changed: what
        /// git tracks is to be learned again (`PollJob` tells the client's
        /// `TrackedFilesRefresh`, whose answer reaches the reader and the
        /// job alike).
        case rulesChanged
    }

    /// Where a pass is.
    enum Phase {
        /// Between passes.
        case idle
        /// Subtree `subtree` is next, not begun.
        case beginning(subtree: Int)
        /// Subtree `subtree`'s directories still to scan, the next last.
        case scanning(subtree: Int, stack: [Pending])
    }

    struct Subtree {
        /// Below the client's root, as bytes; empty for the root itself.
        var relative: [UInt8]
        /// Absolute, as bytes.
        var path: [UInt8]
        /// A watched single file rather than a directory tree.
        var isFile: Bool
        /// The top directory's snapshot; -1 before the first scan and while missing.
        var top: Int32 = -1
        /// A single file's last state.
        var file: PollEntry? = nil
        /// Since when a single file has been missing (an editor's save may be under way).
        var missingSince: Double? = nil
        /// Whether the first scan reports what it finds (`created`): a
        /// directory that just appeared, rather than one watched from the start.
        var reportsFirstScan: Bool
        /// The subtree was seen at least once.
        var seen = false

        init(relative: [UInt8], path: [UInt8], isFile: Bool = false, reportsFirstScan: Bool = false) {
            self.relative = relative
            self.path = path
            self.isFile = isFile
            self.reportsFirstScan = reportsFirstScan
        }

        var isClientRoot: Bool { relative.isEmpty }
    }

    /// A directory waiting to be scanned in the current pass.
    struct Pending {
        var index: Int32
        /// Absolute, NUL-terminated.
        var path: [UInt8]
        /// Where in `path` the part below the client's root begins.
        var relativeStart: Int
        /// Its listing must be read: it is new, or its times changed or are
        /// too recent to tell (names may have come or gone).
        var mustList: Bool
        var isTop: Bool

        /// The directory below the client's root ("" for the root).
        var relative: ArraySlice<UInt8> { path[relativeStart..<(path.count - 1)] }
    }

    struct VanishedDirectory {
        var index: Int32
        var path: [UInt8]
        var reported: Bool
    }

    /// The client's root, absolute, as bytes.
    let rootPath: [UInt8]
    /// What the client asked for when its root goes: to fail, or to wait.
    let onRootDeleted: RootDeletion
    var filter: PathFilter
    var generation: UInt32 = 0
    var tree = PollTree()
    var subtrees: [Subtree]
    private(set) var phase = Phase.idle
    /// The client's root is gone (reported), waiting to come back.
    var rootGone = false
    /// Whether each device's directory times can be trusted (`trustsDirectoryTimes`).
    var localDevices: [UInt64: Bool] = [:]
    /// Times at or after this (nanoseconds since the epoch) are too recent
    /// to prove that a directory's names did not change: a second before
    /// the pass under way began.
    var recentSince: Int64 = 0
    /// The monotonic time of the step under way (seconds).
    var now = 0.0
    /// What the step under way decided, in order.
    var outbox: [Action] = []
    /// What the pass under way found appearing and vanishing: settled at its
    /// end, when both sides of a move are known.
    private var changes = PollChanges()
    /// Directories that vanished in the pass under way, by identity: kept
    /// until the pass ends, in case they turn up under another name.
    var vanishedDirectories: [PollTree.Identity: VanishedDirectory] = [:]
    /// Editors' saves made whole, for what this job finds (a reported file
    /// renamed to an ignored name and written again is one `modified`).
    var coalescer: SaveCoalescer
    /// Set by `replace(_:)`: the next pass re-reads every directory's ignore files.
    var reloadIgnoreFiles = false
    /// A rule file (or git's index) changed during the pass under way.
    var rulesChanged = false
    /// When the pass under way began (monotonic seconds): what the save
    /// rule holds is released at a pass's end only if it was due when the
    /// pass began, so that the pass has looked once more (a new file is
    /// announced only if no pass saw it go again).
    var passBegan: Double?

    /// A single file that vanished is declared deleted only after this long
    /// (an editor's rename-and-write may be under way), like `SaveCoalescer`.
    static let fileGraceSeconds = 1.0

    init(rootPath: FilePath, filter: PathFilter, subtrees: [Subtree], coalescesSaves: Bool = true,
         onRootDeleted: RootDeletion = .fail) {
        self.rootPath = rootPath.bytes
        self.onRootDeleted = onRootDeleted
        self.filter = filter
        self.subtrees = subtrees
        coalescer = SaveCoalescer(holds: coalescesSaves)
    }

    /// The absolute path of `relative` below the client's root.
    func absolute(_ relative: [UInt8]) -> [UInt8] {
        if relative.isEmpty { return rootPath }
        return rootPath == [UInt8(ascii: "/")] ? rootPath + relative : rootPath + [UInt8(ascii: "/")] + relative
    }

    // MARK: Passes

    /// Starts a pass at `wall` (seconds since the epoch, to compare with
    /// files' times). `ruleFilesChanged` are the rule files outside the
    /// tree that changed since the last pass (`FollowedFiles`): when one
    /// decides anything, every directory decides its entries again
    /// (silently), from this pass on.
    func beginPass(wall: Double, ruleFilesChanged: [FilePath] = []) {
        recentSince = Int64((wall - 1) * 1e9)
        var decides = false
        for path in ruleFilesChanged {
            rulesChanged = true
            if filter.ruleFileChanged(path) != nil { decides = true }
        }
        if decides { bumpGeneration() }
        phase = .beginning(subtree: 0)
    }

    /// Scans the pass's next directory (or begins its next subtree) at
    /// `now` (monotonic seconds); returns what that decided, or nil once
    /// every subtree is scanned.
    func step<System: PollSystem>(_ system: System, now: Double) -> [Action]? {
        self.now = now
        if passBegan == nil { passBegan = now }
        outbox = []
        var changes = changes
        self.changes = PollChanges()
        defer { self.changes = changes }
        switch phase {
        case .idle:
            return nil
        case .beginning(let index):
            guard index < subtrees.count else {
                phase = .idle
                return nil
            }
            phase = begin(subtree: index, system, &changes)
        case .scanning(let index, var stack):
            // The phase lets go of the stack, which is then changed in place.
            phase = .idle
            let next = stack.removeLast()
            if scanDirectory(next, system, &changes, &stack) || !next.isTop {
                phase = stack.isEmpty ? .beginning(subtree: index + 1) : .scanning(subtree: index, stack: stack)
            } else {
                phase = topVanished(index, &changes, system)
            }
        }
        return outbox
    }

    /// Ends the pass at `now`: settles what appeared and vanished across
    /// the whole pass (moves), then releases what the save rule held that
    /// was due when the pass began.
    func endPass<System: PollSystem>(_ system: System, now: Double) -> [Action] {
        self.now = now
        outbox = []
        phase = .idle
        var changes = changes
        self.changes = PollChanges()
        reloadIgnoreFiles = false
        if rulesChanged {
            rulesChanged = false
            if filter.gitDirectory != nil { outbox.append(.rulesChanged) }
        }
        // What vanished and did not turn up elsewhere was deleted.
        for (_, gone) in vanishedDirectories {
            deleteTree(gone.index, at: gone.path, &changes)
            if gone.reported { changes.direct.append(PollChanges.event(gone.path, .deleted, isDirectory: true)) }
        }
        vanishedDirectories.removeAll()
        flush(&changes, system)
        let released = coalescer.expire(now: passBegan ?? now)
        if !released.isEmpty { outbox.append(.send(released)) }
        passBegan = nil
        return outbox
    }

    /// A whole pass at once, at `now` (monotonic) and `wall` (tests).
    func pass<System: PollSystem>(_ system: System, now: Double, wall: Double) -> [Action] {
        beginPass(wall: wall)
        var actions: [Action] = []
        while let more = step(system, now: now) { actions += more }
        return actions + endPass(system, now: now)
    }

}
