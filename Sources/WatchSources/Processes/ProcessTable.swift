#if canImport(Glibc)
import Glibc
#endif

/// Reads `/proc` to learn which processes exist: used to tell when a process
/// group has emptied (zombies don't count: they run nothing, and orphans
/// whose init does not reap them would otherwise look alive forever).
enum ProcessTable {
    /// One row of `/proc/PID/stat`.
    struct Entry: Equatable {
        var pid: pid_t
        var state: Character
        var parent: pid_t
        var group: pid_t

        /// Exited but not yet reaped (`Z`), or being torn down (`X`).
        var isDead: Bool { state == "Z" || state == "X" }
    }

    /// Every process visible in `/proc`.
    static func entries() -> [Entry] {
        (FileSystem.entries("/proc") ?? []).compactMap { item in
            pid_t(item.name.string).flatMap(entry)
        }
    }

    /// The entry of one process, or `nil` if it does not exist.
    static func entry(_ pid: pid_t) -> Entry? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        // "pid (comm) S ppid pgrp …"; comm may hold spaces and parentheses.
        guard let close = buffer[..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = buffer[(close + 1)..<count].split(separator: UInt8(ascii: " "), maxSplits: 4)
        guard fields.count >= 3,
              let state = fields[0].first,
              let parent = pid_t(String(decoding: fields[1], as: UTF8.self)),
              let group = pid_t(String(decoding: fields[2], as: UTF8.self))
        else { return nil }
        return Entry(pid: pid, state: Character(UnicodeScalar(state)), parent: parent, group: group)
    }

    /// Whether any process of group `pgid` is still running (zombies aside).
    static func groupIsAlive(_ pgid: pid_t) -> Bool {
        // ESRCH: nobody left, not even a zombie. Otherwise look closer.
        if killpg(pgid, 0) != 0 && errno == ESRCH { return false }
        return entries().contains { $0.group == pgid && !$0.isDead }
    }
}
