import Dispatch
import Signals

/// A stop switch for the runs of `ProcessSource.run(_:options:handle:)`:
/// "stop, and tell me when it is gone".
///
///     let handle = ProcessHandle()
///     ProcessSource.run(["./server"], handle: handle).subscribe(onNext: { event in
///         if case .exited(let status) = event { print(status, handle.isStopped) }
///     })
///     handle.stop()   // SIGTERM, grace, SIGKILL; `exited` follows once the group is gone
///
/// Unlike disposing the subscription, which stops the group silently,
/// `stop()` keeps the events flowing: the output the command writes while
/// it stops, then `exited(status)` once every member of its process group
/// is gone, then completion. `isStopped` says that this exit was asked for.
///
/// A handle stays stopped: a run attached to it later (a subscription made
/// after `stop()`, or a spawn under way at the time) is stopped as it starts.
/// One handle per run is the usual use; several runs may share one.
public final class ProcessHandle: Sendable {
    private struct State {
        var groups: [ProcessGroup] = []
        var stopRequested = false
        var killRequested = false
        var stopping: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())
    /// Entered for each spawn under way and each attached group not yet gone.
    private let live = DispatchGroup()

    /// A handle with no run attached yet.
    public init() {}

    /// Stops every run attached, now or later: the stop signal to its whole
    /// process group (and SIGCONT), then SIGKILL after the grace period.
    /// Never blocks. Each run still sends `exited` once its group is gone.
    public func stop() {
        let groups = state.withLock { state -> [ProcessGroup] in
            state.stopRequested = true
            return state.groups
        }
        for group in groups { group.stop() }
    }

    /// SIGKILL to every attached run's group now, skipping what is left of
    /// a grace period (a second Ctrl-C). Counts as a stop.
    public func kill() {
        let groups = state.withLock { state -> [ProcessGroup] in
            state.stopRequested = true
            state.killRequested = true
            return state.groups
        }
        for group in groups { group.kill() }
    }

    /// Sends `number` to the process group of every attached run that has
    /// not ended (`OnBusy.signal`, job control).
    public func send(_ number: Int32) {
        for group in state.withLock({ $0.groups }) { group.send(number) }
    }

    /// True once `stop()` or `kill()` was called (or an attached group was
    /// stopped by `ProcessSupervisor`): an `exited` that follows is the end
    /// rwatch asked for, not the command's own.
    public var isStopped: Bool { state.withLock { $0.stopRequested } }

    /// Runs `body` once each time an attached run begins to stop, whoever
    /// stopped it (this handle, `ProcessSupervisor` on Ctrl-C): for a
    /// status line when the stop takes a while.
    public func onStopping(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.stopping.append(body) }
    }

    /// The process group ids of the attached runs not yet gone.
    public var processGroups: [Int32] { state.withLock { $0.groups.map(\.id) } }

    /// Blocks until every run attached so far (spawns under way included)
    /// is gone: whole group ended, leader reaped.
    public func waitUntilGone() {
        live.wait()
    }

    // MARK: For ProcessGroup

    /// A spawn for this handle begins: `waitUntilGone` waits for it too.
    func spawnBegins() {
        live.enter()
    }

    /// The spawn begun with `spawnBegins` failed.
    func spawnFailed() {
        live.leave()
    }

    /// The spawn begun with `spawnBegins` made `group`; it is stopped at
    /// once when the handle already is.
    func attach(_ group: ProcessGroup) {
        let (stop, kill) = state.withLock { state -> (Bool, Bool) in
            state.groups.append(group)
            return (state.stopRequested, state.killRequested)
        }
        if kill { group.kill() } else if stop { group.stop() }
    }

    /// `group` began its stop sequence.
    func groupStopping() {
        for body in state.withLock({ $0.stopping }) { body() }
    }

    /// `group` is gone. A group stopped
    /// from elsewhere (`ProcessSupervisor.stopAll` on Ctrl-C) counts as a
    /// stop of this handle too.
    func detach(_ group: ProcessGroup) {
        let stopped = group.wasStopped
        state.withLock { state in
            state.groups.removeAll { $0 === group }
            if stopped { state.stopRequested = true }
        }
        live.leave()
    }
}
