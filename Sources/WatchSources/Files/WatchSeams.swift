import Glibc
import Signals
import Synchronization
import SystemPackage

/// Moments of the reader thread at which a test can act, to provoke a race
/// deterministically instead of hoping for it under load. Each is keyed by
/// a path, so that tests running in parallel never trigger each other's.
enum WatchSeams {
    /// Actions run once, on the reader thread, just before a watch is
    /// added on the directory they are keyed by.
    private static let beforeWatching = Locked<[FilePath: @Sendable () -> Void]>([:])

    /// Tests: runs `action` once, on the reader thread, right before the
    /// watch on `directory` is added (what happens in it then is not seen
    /// by that watch).
    static func beforeWatching(_ directory: FilePath, _ action: @escaping @Sendable () -> Void) {
        beforeWatching.withLock { $0[directory] = action }
    }

    /// Watch budgets by root, for `limitWatches(of:to:)`.
    private static let watchBudgets = Locked<[FilePath: Int]>([:])

    /// Tests: a subscription watching `root` acts as if
    /// `fs.inotify.max_user_watches` allowed it only `budget` watches, to
    /// exercise running out of watches without root. Keyed by the root, so
    /// that tests running in parallel never see each other's.
    package static func limitWatches(of root: FilePath, to budget: Int) {
        watchBudgets.withLock { $0[FileSystem.absolute(root)] = budget }
    }

    /// The budget a test set for one of `roots`, if any (read once per subscription).
    static func watchBudget(for roots: [FilePath]) -> Int? {
        watchBudgets.withLock { budgets in
            for root in roots where !budgets.isEmpty {
                if let budget = budgets[root] { return budget }
            }
            return nil
        }
    }

    /// Directories whose renames a test wants read in two halves.
    private static let renamesReadApart = Locked<Set<FilePath>>([])
    /// Whether any test asked: the one look the read path makes.
    private static let readingApart = Atomic<Bool>(false)

    /// Tests: from now on the reader reads one record per `read(2)`, and
    /// after an `IN_MOVED_FROM` from `directory` its next read comes back
    /// empty once, as it does when the renaming thread has not yet queued
    /// the `IN_MOVED_TO` (the kernel queues the halves separately). Other
    /// directories' records are only read one at a time, not changed.
    static func readRenameHalvesApart(in directory: FilePath, _ on: Bool = true) {
        let any = renamesReadApart.withLock { directories in
            if on { directories.insert(directory) } else { directories.remove(directory) }
            return !directories.isEmpty
        }
        readingApart.store(any, ordering: .relaxed)
    }

    /// Whether the reader should read through `ReaderLoop.readApart`.
    static var readsApart: Bool { readingApart.load(ordering: .relaxed) }

    /// Whether rename halves in `directory` are to be read apart.
    static func readsRenamesApart(in directory: FilePath) -> Bool {
        renamesReadApart.withLock { $0.contains(directory) }
    }

    /// Called by the reader just before it watches `directory`.
    static func willWatch(_ directory: FilePath) {
        guard let action = beforeWatching.withLock({ $0.removeValue(forKey: directory) }) else { return }
        action()
    }
}
