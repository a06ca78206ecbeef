#if canImport(Glibc)
import Glibc
#endif

/// What the process table says about a process group, for tests that check
/// that nothing a run started is left.
public enum ProcessGroups {
    /// Whether a process of `group` is still running. Zombies do not count:
    /// orphans whose new parent never reaps them (PID 1 in some containers)
    /// run nothing and hold no port or file.
    public static func hasRunningMembers(_ group: Int32) -> Bool {
        guard kill(-group, 0) == 0 else { return false }
        return members(of: group).contains { !$0.isZombie }
    }

    /// One process of a group, as `/proc/PID/stat` shows it.
    public struct Member: Sendable {
        public var pid: Int32
        public var parent: Int32
        public var isZombie: Bool
    }

    /// Every process whose group is `group`, zombies included.
    public static func members(of group: Int32) -> [Member] {
        guard let proc = opendir("/proc") else { return [] }
        defer { closedir(proc) }
        var found: [Member] = []
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), let stat = statLine(pid) else { continue }
            // After "(comm) ": state, ppid, pgrp.
            guard let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, Int32(fields[2]) == group else { continue }
            found.append(Member(pid: pid, parent: Int32(fields[1]) ?? 0, isZombie: fields[0] == "Z" || fields[0] == "X"))
        }
        return found
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
