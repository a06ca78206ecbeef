import Dispatch
import Signals
#if canImport(Glibc)
import Glibc
#endif

/// The one owner of a spawned command's life: it starts it as the leader of
/// a new process group, stops the group, reaps the leader, and says when
/// every member is gone. Nothing else signals, waits for or reaps a child.
///
/// A life thread blocks in `waitid(…, WNOWAIT)` for the leader's exit and
/// leaves it a zombie until the end: the unreaped leader keeps its pid, and
/// so the group id, reserved, so every signal sent to the group (always
/// under the state lock, and never after `reaped` is set) reaches members of
/// this group and never a stranger that reused the number.
///
/// Stopping: `stopSignal` (and SIGCONT, so that a stopped group can act on
/// it) to the whole group, SIGKILL to whatever is left after `gracePeriod`.
/// A leader that exits on its own gets the same for members it left behind.
/// The group is *gone* once no member runs (zombies of orphans do not count:
/// they run nothing, and init may never reap them) and the leader is reaped.
final class ProcessGroup: Sendable {
    /// The leader's pid, which is also the group id.
    let id: pid_t
    private let stopSignal: Int32
    private let gracePeriod: Duration
    private let onGone: @Sendable (ProcessGroup) -> Void
    private let handle: ProcessHandle?
    /// Whether the group was given the terminal (`ProcessOptions.terminal`).
    let holdsTerminal: Bool
    private let state = Locked(State())
    /// Left once the group is gone.
    private let gone = DispatchGroup()
    /// Wakes the wait for leftovers when SIGKILL was sent early.
    private let hurry = DispatchSemaphore(value: 0)

    private struct State {
        var leaderExit: ExitStatus?
        /// `stop()` or `kill()` was called: the group ends because we asked.
        var stopRequested = false
        /// When SIGKILL is due, once a stop has begun (asked or for leftovers).
        var killDeadline: ContinuousClock.Instant?
        /// Set just before the leader is reaped: no signal goes out after.
        var reaped = false
        /// Set once the group is gone and its handle knows it.
        var finished = false
    }

    private init(id: pid_t, options: ProcessOptions, handle: ProcessHandle?, holdsTerminal: Bool, onGone: @escaping @Sendable (ProcessGroup) -> Void) {
        self.id = id
        self.holdsTerminal = holdsTerminal
        stopSignal = options.stopSignal
        gracePeriod = options.gracePeriod
        self.handle = handle
        self.onGone = onGone
        gone.enter()
    }

    /// Spawns `arguments` as the leader of a new group, attaches it to
    /// `handle`, and starts watching it. `onGone` runs on the life thread
    /// once the group is gone (and `handle` knows it). Throws a
    /// `ProcessError` naming the command when it cannot start, or when
    /// rwatch is stopping (`ProcessSupervisor`).
    static func start(
        _ arguments: [CommandWord], options: ProcessOptions, handle: ProcessHandle?,
        onGone: @escaping @Sendable (ProcessGroup) -> Void
    ) throws(ProcessError) -> (group: ProcessGroup, child: ProcessLauncher.Child) {
        guard ProcessSupervisor.beginSpawn() else {
            let command = ProcessLauncher.argv(arguments, options).first?.text ?? ""
            throw ProcessError(command: command, reason: .spawnFailed(ECANCELED), detail: "rwatch is stopping")
        }
        handle?.spawnBegins()
        let terminal = options.terminal && ControllingTerminal.reserve()
        let child: ProcessLauncher.Child
        do {
            child = try ProcessLauncher.spawn(arguments, options: options, withTerminal: terminal)
        } catch {
            if terminal { ControllingTerminal.cancelHandOver() }
            handle?.spawnFailed()
            ProcessSupervisor.endSpawn()
            throw error
        }
        if terminal { ControllingTerminal.handedOver(to: child.pid) }
        let group = ProcessGroup(id: child.pid, options: options, handle: handle, holdsTerminal: terminal, onGone: onGone)
        handle?.attach(group)
        ProcessSupervisor.register(group)
        if !DetachedThread.start({ group.live() }) {
            // No thread to watch it: end it here, and say so.
            for fd in [child.stdout, child.stderr] where fd >= 0 { close(fd) }
            group.kill()
            group.live()
            let command = ProcessLauncher.argv(arguments, options).first?.text ?? ""
            throw ProcessError(command: command, reason: .spawnFailed(EAGAIN), detail: "no thread available to watch it")
        }
        return (group, child)
    }

    /// The leader's status, once it has exited.
    var leaderExit: ExitStatus? { state.withLock { $0.leaderExit } }

    /// Whether `stop()` or `kill()` was called before the group was gone.
    var wasStopped: Bool { state.withLock { $0.stopRequested } }

    /// Whether every member is gone, the leader reaped, and the handle told.
    var isGone: Bool { state.withLock { $0.finished } }

    /// Starts the stop sequence without blocking: the stop signal and
    /// SIGCONT now, SIGKILL after the grace period. Later calls do nothing.
    func stop() {
        let deadline = ContinuousClock.now + gracePeriod
        let begun = state.withLock { state -> Bool in
            guard !state.reaped, !state.stopRequested else { return false }
            state.stopRequested = true
            if state.killDeadline.map({ deadline < $0 }) ?? true { state.killDeadline = deadline }
            signalGroup(stopSignal)
            if stopSignal != SIGKILL && stopSignal != SIGCONT { signalGroup(SIGCONT) }
            return true
        }
        guard begun else { return }
        handle?.groupStopping()
        // The grace period runs on a thread of its own: a timer on the
        // Dispatch pool could wait behind blocked workers for ever.
        let grace = gracePeriod.clampedNanoseconds
        let timer: @Sendable () -> Void = { [self] in
            if gone.wait(timeout: .now() + .nanoseconds(grace)) == .timedOut { killIfDue() }
        }
        if !DetachedThread.start(timer) { DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(grace)) { [self] in killIfDue() } }
    }

    /// SIGKILL to the whole group now (a second Ctrl-C): the stop sequence
    /// without its grace period.
    func kill() {
        state.withLock { state in
            guard !state.reaped else { return }
            state.stopRequested = true
            state.killDeadline = .now
            signalGroup(SIGKILL)
        }
        hurry.signal()
    }

    /// Sends `number` to the whole group while it has not been reaped.
    func send(_ number: Int32) {
        state.withLock { state in
            guard !state.reaped else { return }
            signalGroup(number)
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

    /// Only under the state lock with `reaped` false.
    private func signalGroup(_ number: Int32) {
        _ = Glibc.kill(-id, number)
    }

    /// The grace period of a stop is over. (The timer is the deadline: a
    /// second look at a clock could disagree by a hair and skip the kill,
    /// leaving a group that ignores the stop signal running for ever.)
    private func killIfDue() {
        let killed = state.withLock { state -> Bool in
            guard !state.reaped, state.killDeadline != nil else { return false }
            state.killDeadline = .now
            signalGroup(SIGKILL)
            return true
        }
        if killed { hurry.signal() }
    }

    /// The life thread: leader's exit (and, for a group holding the
    /// terminal, its job-control stops), leftovers, reaping.
    private func live() {
        var info = siginfo_t()
        var status = ExitStatus.exited(-1)  // unknown: someone else reaped it
        let jobControl = holdsTerminal ? WSTOPPED | WCONTINUED : 0
        while true {
            if waitid(P_PID, id_t(id), &info, WEXITED | WNOWAIT | jobControl) == 0 {
                let value = info._sifields._sigchld.si_status
                if info.si_code == CLD_STOPPED || info.si_code == CLD_CONTINUED {
                    // Consume the report (WNOWAIT left it waitable; without
                    // WEXITED this never takes the exit), then act on what was
                    // consumed: the report looked at may be stale by now (a
                    // `continued` overtaken by a stop on SIGTTIN, which acted
                    // on as `continued` was lost, leaving the command stopped).
                    var consumed = siginfo_t()
                    if waitid(P_PID, id_t(id), &consumed, WNOHANG | jobControl) == 0, consumed._sifields._sigchld.si_pid == id,
                       consumed.si_code == CLD_STOPPED {
                        leaderStopped(by: consumed._sifields._sigchld.si_status)
                    }
                    continue
                }
                status = info.si_code == CLD_EXITED ? .exited(value) : .signaled(value)
                break
            }
            if errno != EINTR { break }
        }
        let askedToStop = state.withLock { state -> Bool in
            state.leaderExit = status
            return state.stopRequested
        }
        if holdsTerminal {
            ControllingTerminal.takeBack(from: id)
            // Ctrl-C typed while the command held the terminal reached only
            // its group, and so does the hang-up of a closed terminal window
            // when rwatch leads no session: a command that died of either
            // means the user wants out, as a shell running a script
            // concludes (the signal owner stops the rest and exits 130 or 129).
            if !askedToStop, case .signaled(let number) = status, number == SIGINT || number == SIGHUP {
                _ = Glibc.kill(getpid(), number)
            }
        }
        stopLeftovers()
        state.withLock { $0.reaped = true }
        var raw: Int32 = 0
        while waitpid(id, &raw, 0) < 0 && errno == EINTR {}
        ProcessSupervisor.unregister(self)
        handle?.detach(self)
        state.withLock { $0.finished = true }
        gone.leave()
        onGone(self)
    }

    /// The leader of a group holding the terminal stopped. Ctrl-Z (SIGTSTP
    /// to the foreground group) stops rwatch with it, through the signal
    /// owner; a read or a mode change before the hand-over was complete
    /// (SIGTTIN, SIGTTOU) is continued now that the terminal is its.
    private func leaderStopped(by number: Int32) {
        if number == SIGTTIN || number == SIGTTOU, ControllingTerminal.isWaitingForForeground(id) {
            // Continued in the background (`bg`), it read the terminal: the
            // job stops, as a shell's would, so that the shell says so and
            // its `fg` (which continues only a stopped job) gives it the terminal.
            _ = Glibc.kill(getpid(), SIGTSTP)
            return
        }
        guard ControllingTerminal.isHeld(by: id) else { return }  // rwatch itself is stopping
        switch number {
        case SIGTTIN, SIGTTOU:
            send(SIGCONT)
        default:
            _ = Glibc.kill(getpid(), SIGTSTP)
        }
    }

    /// After the leader's exit: waits until no member runs. Members left
    /// behind by a leader that exited on its own get the stop sequence;
    /// SIGKILL goes out when the deadline passes (or at once after `kill()`).
    private func stopLeftovers() {
        guard ProcessTable.groupIsAlive(id) else { return }
        let grace = ContinuousClock.now + gracePeriod
        state.withLock { state in
            guard state.killDeadline == nil else { return }
            state.killDeadline = grace
            signalGroup(stopSignal)
            if stopSignal != SIGKILL && stopSignal != SIGCONT { signalGroup(SIGCONT) }
        }
        var pause = Duration.milliseconds(1)
        var giveUp: ContinuousClock.Instant?
        while ProcessTable.groupIsAlive(id) {
            let now = ContinuousClock.now
            let deadline = state.withLock { $0.killDeadline } ?? grace
            if now >= deadline {
                state.withLock { _ in signalGroup(SIGKILL) }
                // What SIGKILL cannot end at once (uninterruptible sleep)
                // is left to the kernel after a second.
                if let giveUp, now >= giveUp { return }
                giveUp = giveUp ?? now + .seconds(1)
            }
            let wait = min(pause, now < deadline ? now.duration(to: deadline) : pause)
            _ = hurry.wait(timeout: .now() + .nanoseconds(wait.clampedNanoseconds))
            pause = min(pause * 2, .milliseconds(25))
        }
    }
}
