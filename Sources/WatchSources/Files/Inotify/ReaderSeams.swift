import Dispatch
import Glibc
import Signals
import SystemPackage

/// Every test hook of the inotify reader, in one place. A reader is given
/// them at construction (`FileWatcher.Reader(seams:)`, or every reader
/// made after `installForNewReaders`, for readers a test cannot construct
/// itself: `rwatch serve`'s, one per root); its thread then reads and
/// watches through a `SeamedReaderSystem` instead of the
/// `LiveReaderSystem`. A reader without them never looks at them: the
/// choice is made once per reader thread, not per read or per watch.
///
/// They are the moments of the reader thread at which a test acts, to
/// provoke a race deterministically instead of hoping for it under load,
/// and the conditions it cannot make for real without root:
/// - `beforeWatching`: an action just before a directory is watched
///   (what it does is not seen by that watch);
/// - `limitWatches`: few watches left (`fs.inotify.max_user_watches`);
/// - `deafen` and `injectOverflow`: a full kernel queue, which drops
///   records, then queues `IN_Q_OVERFLOW`;
/// - `holdReaders`: a reader behind (still reading a storm);
/// - `readRenameHalvesApart`: a rename whose halves are read in two reads.
/// Each but `holdReaders` is keyed by a path, so that tests sharing the
/// seams (`installForNewReaders`) never trigger each other's.
package final class ReaderSeams: Sendable {
    struct State {
        var beforeWatching: [FilePath: @Sendable () -> Void] = [:]
        var budgets: [FilePath: Int] = [:]
        var deaf: Set<FilePath> = []
        var overflows: Set<FilePath> = []
        var renamesReadApart: Set<FilePath> = []
        /// While a test holds the readers: what releases them, and what
        /// each signals as it stops.
        var hold: (release: DispatchSemaphore, arrived: DispatchSemaphore)? = nil
    }

    private let state = Locked(State())

    package init() {}

    /// The seams every reader made from now on is given (nil: none).
    private static let forNewReaders = Locked<ReaderSeams?>(nil)

    /// Tests: gives every reader made from now on these (the process's one)
    /// seams, and returns them; readers made before keep what they had.
    package static func installForNewReaders() -> ReaderSeams {
        forNewReaders.withLock { installed in
            if let installed { return installed }
            let seams = ReaderSeams()
            installed = seams
            return seams
        }
    }

    /// What a reader made now is given unless it is given seams of its own.
    static var forNewReader: ReaderSeams? { forNewReaders.withLock { $0 } }

    // MARK: Tests' side

    /// Tests: runs `action` once, on the reader thread, right before the
    /// watch on `directory` is added (what happens in it then is not seen
    /// by that watch).
    package func beforeWatching(_ directory: FilePath, _ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.beforeWatching[directory] = action }
    }

    /// Tests: the watches below `root` act as if `fs.inotify.max_user_watches`
    /// allowed only `budget` of them, to run out of watches without root.
    package func limitWatches(of root: FilePath, to budget: Int) {
        state.withLock { $0.budgets[FileSystem.absolute(root)] = budget }
    }

    /// Tests: records from the directories below `root` are dropped from
    /// now on, as a full kernel queue drops them, until `injectOverflow`.
    package func deafen(root: FilePath) {
        state.withLock { _ = $0.deaf.insert(root) }
    }

    /// Tests: the readers watching `root` read what is queued (dropping
    /// what `deafen` drops), then read a queue overflow: their clients
    /// get an `overflow` event, a rescan, and events for what changed
    /// while they were deaf. Returns once that is delivered.
    package func injectOverflow(root: FilePath) {
        state.withLock { _ = $0.overflows.insert(root) }
        // A barrier makes each read; the one watching `root` reads the overflow.
        for reader in InotifyReader.running(with: self) { reader.barrier() }
    }

    /// Tests: holds the reader threads, as a storm they are still reading
    /// would, until the returned function is called; each running one is
    /// held on return (not idle: a sync cannot skip its barrier). Not keyed
    /// by a path: every watch of these readers waits meanwhile, so a test
    /// holds them only for a moment.
    package func holdReaders() -> @Sendable () -> Void {
        let release = DispatchSemaphore(value: 0)
        let arrived = DispatchSemaphore(value: 0)
        state.withLock { $0.hold = (release, arrived) }
        // A barrier makes each read, and so stop before it.
        let readers = InotifyReader.running(with: self)
        for reader in readers { reader.barrier(until: .now()) }
        for _ in readers { _ = arrived.wait(timeout: .now() + 5) }
        return { [state] in
            state.withLock { $0.hold = nil }
            release.signal()
        }
    }

    /// Tests: from now on these readers read one record per `read(2)`, and
    /// after an `IN_MOVED_FROM` from `directory` the next read comes back
    /// empty once, as it does when the renaming thread has not yet queued
    /// the `IN_MOVED_TO` (the kernel queues the halves separately). Other
    /// directories' records are only read one at a time, not changed.
    package func readRenameHalvesApart(in directory: FilePath, _ on: Bool = true) {
        state.withLock { state in
            if on { state.renamesReadApart.insert(directory) } else { state.renamesReadApart.remove(directory) }
        }
    }

    // MARK: Reader thread's side

    /// Runs the action a test set for `directory`, once.
    func willWatch(_ directory: FilePath) {
        state.withLock { $0.beforeWatching.removeValue(forKey: directory) }?()
    }

    /// The budget set for a root at or above `directory`, with that root.
    func budget(covering directory: FilePath) -> (root: FilePath, budget: Int)? {
        state.withLock { state in
            state.budgets.first { FileSystem.relative(directory, to: $0.key) != nil }.map { ($0.key, $0.value) }
        }
    }

    /// Waits while a test holds the readers.
    func waitWhileHeld() {
        guard let hold = state.withLock({ $0.hold }) else { return }
        hold.arrived.signal()
        hold.release.wait()
        // Let the next held reader through too.
        hold.release.signal()
    }

    /// The deaf roots now.
    var deafRoots: Set<FilePath> { state.withLock { $0.deaf } }

    /// Whether records from `directory` (nil: unknown) are dropped now.
    static func isDeaf(_ directory: FilePath?, _ deaf: Set<FilePath>) -> Bool {
        guard let directory, !deaf.isEmpty else { return false }
        return deaf.contains { FileSystem.relative(directory, to: $0) != nil }
    }

    /// An overflow a test injected for one of `watched`, if any (taken).
    func takeOverflow(among watched: some Sequence<FilePath>) -> FilePath? {
        state.withLock { state in
            guard !state.overflows.isEmpty, let root = watched.first(where: { state.overflows.contains($0) }) else { return nil }
            state.overflows.remove(root)
            return root
        }
    }

    /// The reader read what it had queued for `root`: it hears again.
    func overflowRead(_ root: FilePath) {
        state.withLock { _ = $0.deaf.remove(root) }
    }

    /// Whether a test reads `directory`'s renames apart.
    func readsRenamesApart(in directory: FilePath) -> Bool {
        state.withLock { $0.renamesReadApart.contains(directory) }
    }

    /// Whether a test reads renames apart anywhere: then each read takes one record.
    var readingApart: Bool { state.withLock { !$0.renamesReadApart.isEmpty } }
}
