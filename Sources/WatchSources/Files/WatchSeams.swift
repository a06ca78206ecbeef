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

    /// Called by the reader just before it watches `directory`.
    static func willWatch(_ directory: FilePath) {
        guard let action = beforeWatching.withLock({ $0.removeValue(forKey: directory) }) else { return }
        action()
    }
}
