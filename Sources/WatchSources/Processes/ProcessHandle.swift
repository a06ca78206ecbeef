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
///
/// It keeps no fact of a group's own: each `ProcessGroup` knows its life;
/// the handle holds the order it gave (or that a stop from elsewhere gave
/// its runs) and the groups it reaches.
public final class ProcessHandle: Sendable {
    /// What the handle was told to do to its runs, now and later.
    private enum Order: Comparable {
        case stop
        case kill
    }

    private struct State {
        /// Attached groups not yet gone.
        var groups: [ProcessGroup] = []
        var order: Order?
        var stopping: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())
    /// Entered for each spawn under way, left once its group is attached.
    private let spawning = DispatchGroup()

    /// A handle with no run attached yet.
    public init() {}

    /// Stops every run attached, now or later: the stop signal to its whole
    /// process group (and SIGCONT), then SIGKILL after the stop timeout.
    /// Never blocks. Each run still sends `exited` once its group is gone.
    public func stop() {
        for group in give(.stop) { group.stop() }
    }

    /// SIGKILL to every attached run's group now, skipping what is left of
    /// a stop timeout (a second Ctrl-C). Counts as a stop.
    public func kill() {
        for group in give(.kill) { group.kill() }
    }

    /// Sends `number` to the process group of every attached run that has
    /// not ended (`OnBusy.signal`, job control).
    public func send(_ number: Int32) {
        for group in state.withLock({ $0.groups }) { group.send(number) }
    }

    /// True once `stop()` or `kill()` was called (or an attached group was
    /// stopped by `ProcessSupervisor`): an `exited` that follows is the end
    /// rwatch asked for, not the command's own.
    public var isStopped: Bool { state.withLock { $0.order != nil } }

    /// Runs `body` once each time an attached run begins to stop, whoever
    /// stopped it (this handle, `ProcessSupervisor` on Ctrl-C), before the
    /// stop signal goes out: for a status line when the stop takes a
    /// while, and for a caller that must know of the stop before the end
    /// it causes.
    public func onStopping(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.stopping.append(body) }
    }

    /// The process group ids of the attached runs not yet gone.
    public var processGroups: [Int32] { state.withLock { $0.groups.map(\.id) } }

    /// Blocks until every run attached so far (spawns under way included)
    /// is gone: whole group ended, leader reaped.
    public func waitUntilGone() {
        while true {
            spawning.wait()
            let groups = state.withLock { $0.groups }
            if groups.isEmpty { return }
            for group in groups { group.waitUntilGone() }
        }
    }

    /// Records `order` (a kill outranks a stop) and returns the groups to
    /// give it to.
    private func give(_ order: Order) -> [ProcessGroup] {
        state.withLock { state in
            state.order = max(state.order ?? order, order)
            return state.groups
        }
    }

    // MARK: For ProcessGroup

    /// A spawn for this handle begins: `waitUntilGone` waits for it too.
    func spawnBegins() {
        spawning.enter()
    }

    /// The spawn begun with `spawnBegins` failed.
    func spawnFailed() {
        spawning.leave()
    }

    /// The spawn begun with `spawnBegins` made `group`; it is stopped at
    /// once when the handle already is.
    func attach(_ group: ProcessGroup) {
        let order = state.withLock { state in
            state.groups.append(group)
            return state.order
        }
        spawning.leave()
        switch order {
        case .kill: group.kill()
        case .stop: group.stop()
        case nil: break
        }
    }

    /// An attached group began its stop sequence, whoever asked: a stop
    /// from elsewhere (`ProcessSupervisor.stopAll` on Ctrl-C) stops the
    /// handle too.
    func groupStopping() {
        let hooks = state.withLock { state in
            state.order = state.order ?? .stop
            return state.stopping
        }
        for body in hooks { body() }
    }

    /// `group` is gone.
    func detach(_ group: ProcessGroup) {
        state.withLock { $0.groups.removeAll { $0 === group } }
    }
}
