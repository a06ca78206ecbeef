import Signals
import Glibc
import SystemPackage

/// A `TailFollower`'s subscriptions to the process's file reader, one per
/// watched name, and what they reported since the follower last looked:
/// which names changed, which subscriptions failed. The reader's thread
/// only records that and wakes the follower, which does the reading on
/// its own thread: a slow subscriber to the lines never holds up the
/// reader, and its other clients, one file change.
final class TailWatches: Sendable {
    /// What the reader said since the follower last took it.
    struct Reports {
        var changed: Set<Int> = []
        var failed: [Int: FileWatchError] = [:]
    }

    let wake: WakePipe
    private let reports = Locked(Reports())
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
            onNext: { [reports, wake] events in
                reports.withLock { _ = $0.changed.insert(index) }
                wake.wake()
            },
            onError: { [reports, wake] error in
                guard let error = error as? FileWatchError else { return }
                failure.withLock { $0 = error }
                reports.withLock { $0.failed[index] = error }
                wake.wake()
            }
        )
        if let error = failure.withLock({ $0 }) {
            subscription.dispose()
            reports.withLock { $0.failed[index] = nil }
            return error
        }
        subscriptions.withLock { $0[index] = subscription }
        return nil
    }

    /// Stops watching name `index` (it is polled from now on).
    func unwatch(_ index: Int) {
        subscriptions.withLock { $0.removeValue(forKey: index) }?.dispose()
    }

    /// What was reported since the last call, forgotten here.
    func take() -> Reports {
        reports.withLock { reports in
            defer { reports = Reports() }
            return reports
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
