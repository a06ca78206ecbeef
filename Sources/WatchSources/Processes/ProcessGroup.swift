import Dispatch
import Signals
#if canImport(Glibc)
import Glibc
#endif

/// One spawned command's process group, from spawn until its leader is reaped.
///
/// A waiter thread blocks in `waitid(…, WNOWAIT)` for the leader's exit and
/// leaves it a zombie: the unreaped leader keeps its pid, and so the group
/// id, reserved, so signals sent to the group can never hit a stranger that
/// reused the number. Stopping runs on its own thread: `stopSignal` (and
/// SIGCONT, for a stopped group) to the whole group, up to `gracePeriod` for
/// every member to go, SIGKILL to whatever is left, then the reap.
final class ProcessGroup: Sendable {
    /// The leader's pid, which is also the group id.
    let pid: pid_t
    private let stopSignal: Int32
    private let gracePeriod: Duration
    private let onExit: @Sendable () -> Void
    private let state = Locked(State())
    /// Left when the leader has exited (it may still be an unreaped zombie).
    private let leaderExit = DispatchGroup()
    /// Left once the leader is reaped and the group stopped.
    private let finished = DispatchGroup()

    private struct State {
        var exit: ExitStatus?
        var stopRequested = false
    }

    /// Tracks the group led by `pid`; `onExit` runs on the waiter thread once
    /// the leader has exited.
    init(pid: pid_t, stopSignal: Int32, gracePeriod: Duration, onExit: @escaping @Sendable () -> Void) {
        self.pid = pid
        self.stopSignal = stopSignal
        self.gracePeriod = gracePeriod
        self.onExit = onExit
        leaderExit.enter()
        finished.enter()
    }

    /// Starts the waiter thread. Without a thread, kills the group and
    /// reaps the leader here, and returns false.
    func startWaiting() -> Bool {
        if DetachedThread.start({ self.waitForLeader() }) { return true }
        state.withLock { $0.stopRequested = true }
        killpg(pid, SIGKILL)
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        state.withLock { $0.exit = .signaled(SIGKILL) }
        leaderExit.leave()
        ProcessSupervisor.unregister(self)
        finished.leave()
        return false
    }

    /// The leader's status, once it has exited.
    var exitStatus: ExitStatus? { state.withLock { $0.exit } }

    /// Starts stopping the group, without blocking. Later calls do nothing.
    func stop() {
        let first = state.withLock { state in
            defer { state.stopRequested = true }
            return !state.stopRequested
        }
        guard first else { return }
        if !DetachedThread.start({ self.runStopSequence() }) { runStopSequence() }
    }

    /// Blocks until the group is stopped and its leader reaped.
    func waitUntilFinished() {
        finished.wait()
    }

    private func waitForLeader() {
        var info = siginfo_t()
        var status = ExitStatus.exited(-1)  // unknown: someone else reaped it
        while true {
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == 0 {
                let value = info._sifields._sigchld.si_status
                status = info.si_code == CLD_EXITED ? .exited(value) : .signaled(value)
                break
            }
            if errno != EINTR { break }
        }
        state.withLock { $0.exit = status }
        leaderExit.leave()
        onExit()
    }

    private func runStopSequence() {
        let deadline = DispatchTime.now() + .nanoseconds(Self.nanoseconds(gracePeriod))
        if exitStatus == nil || ProcessTable.groupIsAlive(pid) {
            killpg(pid, stopSignal)
            if stopSignal != SIGKILL { killpg(pid, SIGCONT) }
        }
        _ = leaderExit.wait(timeout: deadline)
        var pause: UInt32 = 1_000
        while ProcessTable.groupIsAlive(pid) {
            guard DispatchTime.now() < deadline else {
                killpg(pid, SIGKILL)
                break
            }
            usleep(pause)
            pause = min(pause * 2, 25_000)
        }
        leaderExit.wait()
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        ProcessSupervisor.unregister(self)
        finished.leave()
    }

    static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let total = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
        return Int(max(0, min(total, Double(Int.max / 2))))
    }
}
