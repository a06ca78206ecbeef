import Dispatch
#if canImport(Glibc)
import Glibc
#endif

extension ProcessSupervisor {
    /// Reaps the children of rwatch that have ended and that no
    /// `ProcessGroup` owns: orphans that came to rwatch as the subreaper
    /// (`ProcessControl.becomeSubreaper`) and ended there. Never blocks.
    package static func reapOrphans() {
        for child in ProcessTable.children() where child.isDead {
            _ = reapUnowned(child.pid)
        }
    }

    /// Stops what a child left behind in rwatch's session, and returns once
    /// nothing is left: every child of rwatch there that no `ProcessGroup`
    /// owns (an orphan that came to rwatch as the subreaper) is adopted
    /// (`ProcessGroup.adopt`), which stops its whole group (SIGTERM,
    /// SIGKILL after `stopTimeout`) and reaps it; one that ended is reaped.
    /// Processes of other sessions (daemons) are left alone. An orphan's
    /// own descendants come to rwatch once it is gone, and are taken then.
    package static func stopOrphans(stopTimeout: Duration) {
        let session = getsid(0)
        var adopted: [ProcessGroup] = []
        while true {
            var waiting = false
            for child in ProcessTable.children() where child.session == session {
                if child.isDead {
                    waiting = !reapUnowned(child.pid) && !isOwned(child.pid) || waiting
                } else if let group = ProcessGroup.adopt(child, stopTimeout: stopTimeout) {
                    adopted.append(group)
                } else if !isOwned(child.pid) {
                    waiting = true  // a spawn was under way: look again
                }
            }
            adopted.removeAll { $0.isGone }
            guard !adopted.isEmpty || waiting else { return }
            // Until the first adopted group is gone, or shortly: an orphan's
            // children become rwatch's only once it has ended.
            let soon = ContinuousClock.now + .milliseconds(50)
            if let first = adopted.first {
                _ = first.waitUntilGone(before: soon)
            } else {
                _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(50))
            }
        }
    }

    /// Whether a `ProcessGroup` owns the process `pid`.
    private static func isOwned(_ pid: pid_t) -> Bool {
        owner(of: pid) != nil
    }
}
