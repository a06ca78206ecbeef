import Signals
import Glibc
import SystemPackage

/// A `TailFollower`'s subscriptions to the process's file reader, one per
/// watched name, and what they reported since the follower last looked:
/// which names changed, which subscriptions failed. The reader's thread
/// only records that and wakes the follower, which does the reading on
/// its own thread: a slow subscriber to the lines never holds up the
/// reader, and its other clients, one file change.
///
/// It also keeps which names the reader said are gone and has not said
/// are back (`isWatched`): the follower looks on its own thread, so it
/// can find a file the reader has not seen yet, in a directory the reader
/// has no watch on yet, and that file's deletion would then reach no one.
final class TailWatches: Sendable {
    /// What the reader said since the follower last took it.
    struct Reports {
        var changed: Set<Int> = []
        var failed: [Int: FileWatchError] = [:]

        /// Nothing to take: the follower was not woken since it last took
        /// what there was. Only the first report after a take wakes it (a
        /// log written faster than it is read brings a change per write,
        /// and the follower reads to the end each time it wakes).
        var isEmpty: Bool { changed.isEmpty && failed.isEmpty }
    }

    /// What the reader said: `reports` since the follower last took them,
    /// and the names whose last change it reported was their removal.
    private struct Said {
        var reports = Reports()
        var away: Set<Int> = []
    }

    let wake: WakePipe
    private let said = Locked(Said())
    private let subscriptions = Locked<[Int: any Disposable]>([:])

    init() throws(GNUFunctions.PipeFailure) {
        wake = try WakePipe()
    }

    /// Watches `path` for name `index` (`FileWatcher.followedFile`), and
    /// returns once the watch is in place, or with the error that kept it
    /// from being so.
    func watch(_ index: Int, _ path: FilePath) -> FileWatchError? {
        let failure = Locked<FileWatchError?>(nil)
        let subscription = FileWatcher.followedFile(path).subscribe(
            onNext: { [said, wake] events in
                // A file root's events are all about the name itself.
                let gone = events.last.map { $0.kind == .deleted || $0.kind == .movedFrom }
                let first = said.withLock { said in
                    defer { said.reports.changed.insert(index) }
                    if gone == true { said.away.insert(index) } else if gone == false { said.away.remove(index) }
                    return said.reports.isEmpty
                }
                if first { wake.wake() }
            },
            onError: { [said, wake] error in
                guard let error = error as? FileWatchError else { return }
                failure.withLock { $0 = error }
                let first = said.withLock { said in
                    defer { said.reports.failed[index] = error }
                    return said.reports.isEmpty
                }
                if first { wake.wake() }
            }
        )
        if let error = failure.withLock({ $0 }) {
            subscription.dispose()
            said.withLock { $0.reports.failed[index] = nil }
            return error
        }
        subscriptions.withLock { $0[index] = subscription }
        // Missing now: the reader waits for the name (or saw it go just
        // now, and says so next). Looked at under the lock, so that a
        // `created` reported meanwhile is not undone.
        said.withLock { said in
            var info = stat()
            if path.withPlatformString({ stat($0, &info) }) != 0 { said.away.insert(index) }
        }
        return nil
    }

    /// Whether the reader watches name `index`'s directory: it has not
    /// reported the name gone since it last reported it there. A file
    /// found under a name that is not watched is not opened until the
    /// reader says it is there (it does once its watch is in place): if
    /// it went again before that, nothing would tell the follower, and the
    /// deleted file, held open, would keep its directory alive.
    func isWatched(_ index: Int) -> Bool {
        said.withLock { !$0.away.contains(index) }
    }

    /// Stops watching name `index` (it is polled from now on).
    func unwatch(_ index: Int) {
        subscriptions.withLock { $0.removeValue(forKey: index) }?.dispose()
        said.withLock { _ = $0.away.remove(index) }
    }

    /// What was reported since the last call, forgotten here.
    func take() -> Reports {
        said.withLock { said in
            defer { said.reports = Reports() }
            return said.reports
        }
    }

    /// Ends every subscription (the follower is done).
    func cancel() {
        let all = subscriptions.withLock { subscriptions in
            defer { subscriptions = [:] }
            return subscriptions
        }
        for subscription in all.values { subscription.dispose() }
    }
}
