import Glibc

/// What is left of a stopped process group after its leader exited.
enum GroupReaper {
    /// Kills members of `group` that outlived their leader (grandchildren
    /// that ignored the stop signal) and waits, up to `limit`, until none is
    /// left running, so that a restarted server finds its port free.
    static func reap(_ group: Int32, within limit: Duration) {
        let deadline = ContinuousClock.now + limit
        while hasRunningMembers(group), ContinuousClock.now < deadline {
            kill(-group, SIGKILL)
            usleep(2_000)
        }
    }

    /// Waits while `group` stops by itself (its process source sends the
    /// stop signal), then kills what is left after `grace`.
    static func waitUntilGone(_ group: Int32, grace: Duration) {
        let deadline = ContinuousClock.now + grace
        while hasRunningMembers(group), ContinuousClock.now < deadline {
            usleep(2_000)
        }
        reap(group, within: .seconds(1))
    }

    /// Whether a process of `group` is still running. Zombies do not count:
    /// orphans whose new parent never reaps them (PID 1 in some containers)
    /// hold no port and no file.
    static func hasRunningMembers(_ group: Int32) -> Bool {
        guard kill(-group, 0) == 0 else { return false }
        guard let proc = opendir("/proc") else { return true }
        defer { closedir(proc) }
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), let stat = statLine(pid) else { continue }
            // After "(comm) ": state, ppid, pgrp.
            guard let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 2, fields[0] != "Z", Int32(fields[2]) == group { return true }
        }
        return false
    }

    private static func statLine(_ pid: Int32) -> String? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : nil
    }
}
