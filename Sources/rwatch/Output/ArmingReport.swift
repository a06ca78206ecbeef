import Dispatch
import RecipeKit
import Synchronization

/// Says when a watch is armed (`ArmedLine`): `subscribe` on a file watch
/// returns once every directory is watched, so the time it takes, and how
/// many watches it added (`FileWatcher.watchesAdded`), are arming's. On a
/// terminal, a progress line is drawn meanwhile once arming passes a
/// second, and erased before the line; never elsewhere.
enum ArmingReport {
    /// `batches`, whose first subscription prints the armed line after it
    /// returned, unless it failed meanwhile; later subscriptions (the same shared watch, subscribed
    /// again by another stage of the pipeline) print nothing.
    /// `placement`: where the watches said they are.
    static func announcing(_ batches: Signal<[FileEvent]>, paths: [FilePath], placement: WatchPlacement,
                           waitsForChange: Bool) -> Signal<[FileEvent]> {
        let announced = Atomic<Bool>(false)
        return Signal { observer in
            guard !announced.exchange(true, ordering: .relaxed) else { return batches.subscribe(observer) }
            let workingDirectory = Terminal.workingDirectory
            let before = FileWatcher.watchesAdded
            let started = ContinuousClock.now
            let progress = Terminal.drawsProgress ? ArmingProgress(paths: paths, workingDirectory: workingDirectory, since: before) : nil
            // A watch that failed as it armed (no watches left) says so
            // itself: no armed line before its error.
            let failed = Atomic<Bool>(false)
            let subscription = batches.on(error: { _ in failed.store(true, ordering: .relaxed) }).subscribe(observer)
            progress?.stop()
            guard !failed.load(ordering: .relaxed) else { return subscription }
            Terminal.status(ArmedLine.text(paths: paths, workingDirectory: workingDirectory,
                                           directories: FileWatcher.watchesAdded - before,
                                           served: placement.isServed, took: ContinuousClock.now - started,
                                           waitsForChange: waitsForChange), color: .dim)
            return subscription
        }.described(batches.node) // the same changes: no stage of its own in a picture
    }
}

/// The progress line while a watch arms: a thread that wakes every 100 ms
/// and, past `ArmedLine.progressAfter`, redraws the line in place. `stop`
/// returns once the line is erased and the thread will draw no more.
final class ArmingProgress: Sendable {
    private let stopping = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    init(paths: [FilePath], workingDirectory: FilePath, since before: Int) {
        let started = ContinuousClock.now
        let (stopping, stopped) = (stopping, stopped)
        DispatchQueue.global().async {
            var drawn = false
            while stopping.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
                if let line = ArmedLine.progress(paths: paths, workingDirectory: workingDirectory,
                                                 directories: FileWatcher.watchesAdded - before,
                                                 elapsed: ContinuousClock.now - started) {
                    Terminal.progress(line)
                    drawn = true
                }
            }
            if drawn { Terminal.clearProgress() }
            stopped.signal()
        }
    }

    /// Erases the line (if one was drawn); no progress is drawn after.
    func stop() {
        stopping.signal()
        stopped.wait()
    }
}
