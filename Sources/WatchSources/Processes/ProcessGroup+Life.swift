import Dispatch
import Signals
#if canImport(Glibc)
import Glibc
#endif

extension ProcessGroup {
    /// Takes over `orphan`, a child of rwatch in its session that no group
    /// owns (it came to rwatch as the subreaper: its parent died), and
    /// begins its stop sequence: SIGTERM to its whole group (the process
    /// alone when that is rwatch's own), SIGKILL after `stopTimeout`. The
    /// unreaped orphan, a member, keeps the group id reserved. Nil when the
    /// orphan is owned after all, or a spawn is under way (its child may be
    /// this one, not registered yet): look again later.
    static func adopt(_ orphan: ProcessTable.Entry, stopTimeout: Duration) -> ProcessGroup? {
        let own = orphan.group == getpgrp() || orphan.group <= 1
        let group = ProcessGroup(id: orphan.pid, target: own ? .process(orphan.pid) : .group(orphan.group),
                                 stopSignal: SIGTERM, stopTimeout: stopTimeout, handle: nil, holdsTerminal: false, onGone: { _ in })
        guard ProcessSupervisor.adopt(group) else { return nil }
        _ = group.startLife()
        group.stop()
        return group
    }

    /// Reaps `pid`, an orphan that ended before any group adopted it
    /// (`ProcessSupervisor` has made sure, under its lock, that none owns
    /// it): nothing is left to stop, and nobody asks how it ended. True
    /// when it is no zombie of rwatch's any more.
    static func reapEndedOrphan(_ pid: pid_t) -> Bool {
        waitpid(pid, nil, WNOHANG) != 0
    }

    /// Starts the life thread. Without one, ends the group on this thread
    /// and returns false.
    func startLife() -> Bool {
        if DetachedThread.start({ self.live() }) { return true }
        kill()
        live()
        return false
    }

    /// The life thread: the leader's exit (and, for a group holding the
    /// terminal, its job-control stops), leftovers, reaping.
    private func live() {
        let status = waitForLeader()
        let askedToStop = withState { state -> Bool in
            state.phase = .leaderExited(status)
            return state.stop?.asked == true
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
        if case .group(let pgid) = target { stopLeftovers(of: pgid) }
        withState { $0.phase = .reaped(status) }
        while waitpid(id, nil, 0) < 0 && errno == EINTR {}
        descendants?.finish()
        ProcessSupervisor.unregister(self)
        handle?.detach(self)
        withState { $0.phase = .gone(status) }
        gone.leave()
        onGone(self)
    }

    /// Waits for the leader's exit, leaving it unreaped, and decodes how it
    /// ended (the one place that does).
    private func waitForLeader() -> ExitStatus {
        var info = siginfo_t()
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
                return info.si_code == CLD_EXITED ? .exited(value) : .signaled(value)
            }
            if errno != EINTR { return .exited(-1) }  // unknown: someone else reaped it
        }
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

    /// After the leader's exit: waits until no member of `pgid` runs, and
    /// nothing the run started outside it (`descendants`). What a leader
    /// that exited on its own left behind gets the stop sequence; SIGKILL
    /// goes out when it is due (at once after `kill()`).
    private func stopLeftovers(of pgid: pid_t) {
        // Its children came to rwatch (or init) as it exited: orphans now.
        collectDescendants()
        let alive = { ProcessTable.groupIsAlive(pgid) || self.descendants?.isAlive == true }
        guard alive() else { return }
        let grace = ContinuousClock.now + stopTimeout
        withState { state in
            // Already stopping: what was only found now hears it too.
            if state.stop == nil { state.stop = State.Stop(asked: false, killAt: grace) }
            sendStopSignal()
        }
        var pause = Duration.milliseconds(1)
        var giveUp: ContinuousClock.Instant?
        while alive() {
            let now = ContinuousClock.now
            let deadline = withState { $0.stop?.killAt } ?? grace
            if now >= deadline {
                withState { _ in signal(SIGKILL) }
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
