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

    /// Stops what children left behind, and returns once nothing is left:
    /// every child of rwatch that no `ProcessGroup` owns (an orphan that
    /// came to rwatch as the subreaper, daemons that left their session
    /// included) is adopted (`ProcessGroup.adopt`), which stops its whole
    /// group (SIGTERM, SIGKILL after `stopTimeout`) and reaps it; one that
    /// ended is reaped. An orphan's own descendants come to rwatch once it
    /// is gone, and are taken then.
    package static func stopOrphans(stopTimeout: Duration) {
        var adopted: [ProcessGroup] = []
        while true {
            var waiting = false
            for child in ProcessTable.children() {
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

    /// The orphans a run left that `group`, stopping or ended, is to stop
    /// with itself, where no cgroup tells whose they are: rwatch's children
    /// that no group owns and that still run, while `group` is the only run
    /// that follows its descendants (with two, an orphan may be the
    /// other's: it waits for a later stop, or rwatch's exit).
    static func orphans(leftBy group: ProcessGroup) -> [ProcessTable.Entry] {
        guard isSubreaper else { return [] }
        let alone = registry.withLock { registry in
            !registry.groups.values.contains { $0 !== group && $0.descendants != nil && !$0.isGone }
        }
        guard alone else { return [] }
        return ProcessTable.children().filter { !$0.isDead && owner(of: $0.pid) == nil }
    }

    /// Whether a `ProcessGroup` owns the process `pid`.
    private static func isOwned(_ pid: pid_t) -> Bool {
        owner(of: pid) != nil
    }
}
