import Signals
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

    /// Called by the reader just before it watches `directory`.
    static func willWatch(_ directory: FilePath) {
        guard let action = beforeWatching.withLock({ $0.removeValue(forKey: directory) }) else { return }
        action()
    }
}
