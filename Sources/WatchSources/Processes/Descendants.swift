internal import CGlibcShims
#if canImport(Glibc)
import Glibc
#endif
import Signals

/// What a run started outside its process group: processes that called
/// `setsid`, double-forked, or became daemons (`daemon(3)`, `nohup … &`
/// under a shell with job control). `ProcessGroup` stops them with the
/// group, and the group is gone only once they are gone too.
///
/// Where rwatch makes cgroups (`ControlGroup`), the run's cgroup holds
/// every one of them from birth. Elsewhere they are followed: at each stop
/// and when the leader exits, the process tree below the leader is walked,
/// and the orphans that came to rwatch (the subreaper) are taken while
/// this run is the only one that can have left them; each is held by a
/// pidfd, so that no signal can reach a later process given its pid.
final class Descendants: Sendable {
    /// The run's cgroup, or nil where rwatch makes none.
    let controlGroup: ControlGroup?
    /// The processes followed without a cgroup, by pidfd.
    private let followed = Locked<[(pid: pid_t, fd: Int32)]>([])

    init(_ controlGroup: ControlGroup?) {
        self.controlGroup = controlGroup
    }

    /// Without a cgroup: follows, from now on, the processes below
    /// `leader` outside `group` (the group itself is signalled whole), and
    /// `orphans`, rwatch's children no run owns. A cgroup holds them all
    /// already.
    func collect(below leader: pid_t, outside group: pid_t, orphans: [ProcessTable.Entry]) {
        guard controlGroup == nil else { return }
        let found = ProcessTable.descendants(of: leader).filter { $0.group != group } + orphans
        for entry in found where !entry.isDead {
            follow(entry)
        }
    }

    /// Sends `number` to every descendant outside `group` (signalled whole
    /// by the caller); SIGKILL ends a cgroup whole (`cgroup.kill`).
    func signal(_ number: Int32, outside group: pid_t) {
        if let controlGroup {
            if number == SIGKILL { controlGroup.kill() } else { controlGroup.signal(number, sparing: group) }
            return
        }
        // One in the group (an orphan still in it) had the group's signal.
        // (Should its pid name another process now, it is dead: nothing is lost.)
        for process in followed.withLock({ $0 }) where getpgid(process.pid) != group {
            _ = CGlibcShims_pidfd_send_signal(process.fd, number)
        }
    }

    /// Whether any of them still runs (zombies do not).
    var isAlive: Bool {
        if let controlGroup { return controlGroup.isPopulated }
        return followed.withLock { processes in
            processes.removeAll { process in
                var ready = pollfd(fd: process.fd, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 0) == 1 else { return false }
                close(process.fd)
                return true
            }
            return !processes.isEmpty
        }
    }

    /// The run is over: the cgroup removed, the pidfds closed.
    func finish() {
        controlGroup?.remove()
        for process in followed.withLock({ processes in
            defer { processes.removeAll() }
            return processes
        }) { close(process.fd) }
    }

    /// Holds `entry` by a pidfd, once it is sure to be that process (its
    /// start time unchanged since the walk that found it).
    private func follow(_ entry: ProcessTable.Entry) {
        guard !followed.withLock({ $0.contains { $0.pid == entry.pid } }) else { return }
        // A kernel before 5.3 has no pidfd: the group and the cgroup are all there is.
        let fd = CGlibcShims_pidfd_open(entry.pid)
        guard fd >= 0 else { return }
        guard let now = ProcessTable.entry(entry.pid), now.startTime == entry.startTime else {
            close(fd)
            return
        }
        followed.withLock { $0.append((entry.pid, fd)) }
    }
}
