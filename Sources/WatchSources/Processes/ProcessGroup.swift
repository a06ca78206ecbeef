import Dispatch
import Signals
#if canImport(Glibc)
import Glibc
#endif

/// The one owner of a child process's life: it starts it (as the leader of
/// a new process group, or in rwatch's own), stops it, reaps it, and says
/// when it is gone. Nothing else signals, waits for or reaps a child; an
/// orphan that came to rwatch as the subreaper is adopted by one too.
///
/// A life thread blocks in `waitid(…, WNOWAIT)` for the leader's exit and
/// leaves it a zombie until the end: the unreaped leader keeps its pid, and
/// so its group id, reserved, so every signal sent to the group (always
/// under the state lock, and never once it is reaped) reaches members of
/// this group and never a stranger that reused the number.
///
/// Stopping: `stopSignal` (and SIGCONT, so that a stopped group can act on
/// it) to the whole group, SIGKILL to whatever is left after `stopTimeout`.
/// A leader that exits on its own gets the same for members it left behind.
/// The group is *gone* once no member runs (zombies of orphans do not count:
/// they run nothing, and init may never reap them) and the leader is reaped.
final class ProcessGroup: Sendable {
    /// Where the owner's signals go.
    enum Target: Equatable {
        /// The whole process group with this id.
        case group(pid_t)
        /// The process alone: it is in rwatch's own group.
        case process(pid_t)
    }

    /// The process owned, started or adopted: the group's leader, or the
    /// member that keeps an adopted group's id reserved. It is reaped last.
    let id: pid_t
    let target: Target
    let stopSignal: Int32
    let stopTimeout: Duration
    let handle: ProcessHandle?
    let onGone: @Sendable (ProcessGroup) -> Void
    /// Whether the group was given the terminal (`ProcessOptions.interactive`).
    let holdsTerminal: Bool
    /// What the run started outside its group, stopped with it
    /// (`ProcessOptions.stopsDescendants`); nil for a process that is not
    /// a run (the recipe child, an adopted orphan).
    let descendants: Descendants?
    private let state = Locked(State())
    /// Left once the group is gone.
    let gone = DispatchGroup()
    /// Wakes the wait for leftovers when SIGKILL was sent early.
    let hurry = DispatchSemaphore(value: 0)

    /// The group's life: the one place that says whether a stop was asked
    /// for, how it ended, and whether it is gone.
    struct State {
        enum Phase {
            case running
            /// The leader exited; members it left behind may still run.
            case leaderExited(ExitStatus)
            /// The leader is being reaped: no signal goes out any more.
            case reaped(ExitStatus)
            /// Every member ended, the leader reaped, its handle told.
            case gone(ExitStatus)
        }

        /// The stop sequence, once begun: asked for (`stop()`, `kill()`) or
        /// for members the leader left behind; SIGKILL is due at `killAt`.
        struct Stop {
            var asked: Bool
            var killAt: ContinuousClock.Instant
        }

        var phase = Phase.running
        var stop: Stop?

        /// Whether signals may go out: the leader is not reaped yet.
        var canSignal: Bool {
            switch phase {
            case .running, .leaderExited: true
            case .reaped, .gone: false
            }
        }

        var leaderExit: ExitStatus? {
            switch phase {
            case .running: nil
            case .leaderExited(let status), .reaped(let status), .gone(let status): status
            }
        }
    }

    init(id: pid_t, target: Target, stopSignal: Int32, stopTimeout: Duration, handle: ProcessHandle?,
         holdsTerminal: Bool, descendants: Descendants? = nil, onGone: @escaping @Sendable (ProcessGroup) -> Void) {
        self.id = id
        self.target = target
        self.stopSignal = stopSignal
        self.stopTimeout = stopTimeout
        self.handle = handle
        self.holdsTerminal = holdsTerminal
        self.descendants = descendants
        self.onGone = onGone
        gone.enter()
    }

    /// Spawns `arguments` as `options` say, attaches it to `handle`, and
    /// starts watching it. `onGone` runs on the life thread once the group
    /// is gone (and `handle` knows it). Throws a `ProcessError` naming the
    /// command when it cannot start, or when rwatch is stopping
    /// (`ProcessSupervisor`).
    static func start(
        _ arguments: [CommandWord], options: ProcessOptions, handle: ProcessHandle?,
        onGone: @escaping @Sendable (ProcessGroup) -> Void
    ) throws(ProcessError) -> (group: ProcessGroup, child: ProcessLauncher.Child) {
        let command = { ProcessLauncher.argv(arguments, options).first?.text ?? "" }
        guard ProcessSupervisor.beginSpawn() else {
            throw ProcessError(command: command(), reason: .spawnFailed(ECANCELED), detail: "rwatch is stopping")
        }
        handle?.spawnBegins()
        let terminal = options.interactive && options.grouping == .newGroup && ControllingTerminal.reserve()
        let contained = options.stopsDescendants && options.grouping == .newGroup
        let controlGroup = contained ? ControlGroup.make() : nil
        let child: ProcessLauncher.Child
        do {
            child = try ProcessLauncher.spawn(arguments, options: options, withTerminal: terminal, controlGroup: controlGroup)
        } catch {
            controlGroup?.remove()
            if terminal { ControllingTerminal.cancelHandOver() }
            handle?.spawnFailed()
            ProcessSupervisor.endSpawn()
            throw error
        }
        if terminal { ControllingTerminal.handedOver(to: child.pid) }
        if !child.inControlGroup { controlGroup?.remove() }
        let target = options.grouping == .newGroup ? Target.group(child.pid) : .process(child.pid)
        let group = ProcessGroup(id: child.pid, target: target, stopSignal: options.stopSignal, stopTimeout: options.stopTimeout,
                                 handle: handle, holdsTerminal: terminal,
                                 descendants: contained ? Descendants(child.inControlGroup ? controlGroup : nil) : nil, onGone: onGone)
        handle?.attach(group)
        ProcessSupervisor.register(group)
        guard group.startLife() else {
            // No thread to watch it: it was ended here; say so.
            for fd in [child.stdout, child.stderr] where fd >= 0 { close(fd) }
            throw ProcessError(command: command(), reason: .spawnFailed(EAGAIN), detail: "no thread available to watch it")
        }
        return (group, child)
    }

    /// The leader's status, once it has exited.
    var leaderExit: ExitStatus? { state.withLock { $0.leaderExit } }

    /// Whether every member is gone, the leader reaped, and the handle told.
    var isGone: Bool {
        state.withLock { state in
            if case .gone = state.phase { return true }
            return false
        }
    }

    /// Whether the process is in rwatch's own group: it hears the terminal
    /// as rwatch does, and its starter stops it (`ProcessSupervisor`'s
    /// broadcasts leave it out).
    var isInRwatchsGroup: Bool {
        if case .process = target { return true }
        return false
    }

    /// Starts the stop sequence without blocking: the stop signal and
    /// SIGCONT now, SIGKILL after `stopTimeout`. Later calls do nothing.
    func stop() {
        let deadline = ContinuousClock.now + stopTimeout
        let begun = state.withLock { state -> Bool in
            guard state.canSignal, state.stop?.asked != true else { return false }
            state.stop = State.Stop(asked: true, killAt: min(state.stop?.killAt ?? deadline, deadline))
            return true
        }
        guard begun else { return }
        collectDescendants()
        // Before the signal: whoever listens hears of the stop before the end it causes.
        handle?.groupStopping()
        state.withLock { state in
            if state.canSignal { sendStopSignal() }
        }
        // The stop timeout runs on a thread of its own: a timer on the
        // Dispatch pool could wait behind blocked workers for ever.
        let grace = stopTimeout.clampedNanoseconds
        let timer: @Sendable () -> Void = { [self] in
            if gone.wait(timeout: .now() + .nanoseconds(grace)) == .timedOut { killIfDue() }
        }
        if !DetachedThread.start(timer) { DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(grace)) { [self] in killIfDue() } }
    }

    /// SIGKILL to the whole group now (a second Ctrl-C): the stop sequence
    /// without its stop timeout.
    func kill() {
        let first = state.withLock { state -> Bool? in
            guard state.canSignal else { return nil }
            defer { state.stop = State.Stop(asked: true, killAt: .now) }
            return state.stop?.asked != true
        }
        guard let first else { return }
        if first { handle?.groupStopping() }
        state.withLock { state in
            if state.canSignal { signal(SIGKILL) }
        }
        hurry.signal()
    }

    /// Sends `number` to the whole group while it has not been reaped.
    func send(_ number: Int32) {
        state.withLock { state in
            if state.canSignal { signal(number) }
        }
    }

    /// Blocks until the group is gone.
    func waitUntilGone() {
        gone.wait()
    }

    /// Blocks until the group is gone or `deadline` passes; true when gone.
    func waitUntilGone(before deadline: ContinuousClock.Instant) -> Bool {
        let left = ContinuousClock.now.duration(to: deadline)
        return gone.wait(timeout: .now() + .nanoseconds(left.clampedNanoseconds)) == .success
    }

    // MARK: For the life thread

    /// Runs `body` on the state under its lock.
    func withState<Result>(_ body: (inout State) -> Result) -> Result {
        state.withLock(body)
    }

    /// Only under the state lock, while `canSignal`: to the group (or the
    /// process), and to what the run started outside it.
    func signal(_ number: Int32) {
        switch target {
        case .group(let pgid):
            _ = Glibc.kill(-pgid, number)
            descendants?.signal(number, outside: pgid)
        case .process(let pid):
            _ = Glibc.kill(pid, number)
        }
    }

    /// Without a cgroup: follows what the run started outside its group
    /// from now on (`Descendants.collect`), before a stop signal goes out.
    func collectDescendants() {
        guard let descendants, descendants.controlGroup == nil, case .group(let pgid) = target else { return }
        descendants.collect(below: id, outside: pgid, orphans: ProcessSupervisor.orphans(leftBy: self))
    }

    /// The first step of every stop sequence: the stop signal, and SIGCONT
    /// so that a stopped member acts on it. Only under the state lock,
    /// while `canSignal`.
    func sendStopSignal() {
        signal(stopSignal)
        if stopSignal != SIGKILL && stopSignal != SIGCONT { signal(SIGCONT) }
    }

    /// The stop timeout of a stop is over. (The timer is the deadline: a
    /// second look at a clock could disagree by a hair and skip the kill,
    /// leaving a group that ignores the stop signal running for ever.)
    private func killIfDue() {
        let killed = state.withLock { state -> Bool in
            guard state.canSignal, state.stop != nil else { return false }
            state.stop?.killAt = .now
            signal(SIGKILL)
            return true
        }
        if killed { hurry.signal() }
    }
}
