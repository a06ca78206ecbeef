import Signals
import WatchSources
import WatchmanProtocol

/// One registered trigger of one root: its definition, where it has got
/// to on the root's clock, and its running command (one at a time).
///
/// Driven on its root's broadcast queue (`RootBroadcast.settled`): when
/// nothing runs, the query runs since the clock of the last start; when
/// it matched, the command starts. When it ends, the query runs again
/// from that start's clock, so what changed meanwhile starts it again,
/// and a command that touches files never runs twice at once.
final class Trigger: Sendable {
    let spec: TriggerSpec
    let root: Root
    /// `WATCHMAN_SOCK` for the command.
    let socketPath: String
    let log: ServiceLog

    struct Progress: Sendable {
        /// The clock the last run started at (nil before the first: all files).
        var since: ClockPosition?
        var running: ProcessHandle?
        var removed = false
    }

    let progress = Locked(Progress())

    init(spec: TriggerSpec, root: Root, socketPath: String, log: ServiceLog) {
        self.spec = spec
        self.root = root
        self.socketPath = socketPath
        self.log = log
    }

    var name: String { spec.name }

    /// Whether nothing changed since its last start (or it is running).
    func isIdle(atTick tick: UInt64) -> Bool {
        progress.withLock { $0.running != nil || $0.removed || $0.since?.tick == tick }
    }

    /// Runs the query since the last start and starts the command when
    /// something matched; nothing while a run is under way. `finished`
    /// is called on the broadcast's queue when the run ends. On that queue.
    func evaluate(then finished: @escaping @Sendable () -> Void) {
        let (ready, since) = progress.withLock { ($0.running == nil && !$0.removed, $0.since) }
        guard ready else { return }
        var query = spec.query
        query.since = since.map { .clock(.current, $0) }
        let evaluation: Evaluation
        do {
            evaluation = try root.evaluate(query)
        } catch {
            log.log(.error, "error running trigger \(name) query: \(error)")
            return
        }
        guard !evaluation.files.isEmpty else {
            progress.withLock { $0.since = evaluation.position }
            return
        }
        let handle = ProcessHandle()
        progress.withLock {
            $0.since = evaluation.position
            $0.running = handle
        }
        let launch = TriggerLaunch(trigger: self, evaluation: evaluation, since: since)
        launch.start(handle: handle) { [self] in
            progress.withLock { $0.running = nil }
            finished()
        }
    }

    /// Stops a running command (the trigger was deleted or replaced, its
    /// root let go, the service stopping); nothing starts from now on.
    func remove() -> ProcessHandle? {
        let handle = progress.withLock { progress -> ProcessHandle? in
            progress.removed = true
            return progress.running
        }
        handle?.stop()
        return handle
    }
}
