#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Reads `/proc` to learn which processes exist: used to tell when a process
/// group has emptied (zombies don't count: they run nothing, and orphans
/// whose init does not reap them would otherwise look alive forever), and
/// which children a subreaper was given. The one reader of `/proc/PID/stat`.
package enum ProcessTable {
    /// One row of `/proc/PID/stat`.
    package struct Entry: Equatable, Sendable {
        package var pid: pid_t
        package var state: Character
        package var parent: pid_t
        package var group: pid_t
        package var session: pid_t
        /// When it started, in clock ticks after boot: with the pid, who it is
        /// (a later process given the same pid started later).
        package var startTime: UInt64 = 0

        /// Exited but not yet reaped (`Z`), or being torn down (`X`).
        package var isDead: Bool { state == "Z" || state == "X" }
    }

    /// Every process visible in `/proc`.
    static func entries() -> [Entry] {
        pids(in: "/proc").compactMap(entry)
    }

    /// The processes of group `pgid`, zombies included. Only they have
    /// their `stat` read: `getpgid` costs one cheap system call per
    /// process, where reading `/proc/PID/stat` takes three and the
    /// process's memory-map lock (9 ms for 142 processes on a loaded
    /// 2-core machine, against 0.4 ms).
    static func members(of pgid: pid_t) -> [Entry] {
        pids(in: "/proc").filter { getpgid($0) == pgid }.compactMap(entry).filter { $0.group == pgid }
    }

    /// The children of this process (of any of its threads), zombies
    /// included: for a subreaper, the orphans it was given too.
    package static func children() -> [Entry] {
        childPIDs(of: getpid()).compactMap(entry)
    }

    /// The processes below `pid` (its children, theirs, and so on) as
    /// `/proc` shows them now, nearest first; zombies included.
    static func descendants(of pid: pid_t) -> [Entry] {
        var found: [pid_t] = []
        var next = [pid]
        while !next.isEmpty {
            let level = next.flatMap(childPIDs).filter { !found.contains($0) && $0 != pid }
            found += level
            next = level
        }
        return found.compactMap(entry)
    }

    /// The children of `pid`, of any of its threads.
    private static func childPIDs(of pid: pid_t) -> [pid_t] {
        var result: [pid_t] = []
        for thread in pids(in: "/proc/\(pid)/task") {
            guard case .contents(let bytes) = FileSystem.readFile(FilePath("/proc/\(pid)/task/\(thread)/children")) else { continue }
            result += bytes.split(separator: UInt8(ascii: " ")).compactMap { number($0) }
        }
        return result
    }

    /// The numeric names in `directory` (process or thread ids).
    private static func pids(in directory: String) -> [pid_t] {
        var result: [pid_t] = []
        _ = FileSystem.forEachName(in: FilePath(directory)) { name, _ in
            if let value = number(name) { result.append(value) }
        }
        return result
    }

    /// `bytes` as a positive decimal number, or nil.
    private static func number(_ bytes: some Collection<UInt8>) -> pid_t? {
        var value: pid_t = 0
        for byte in bytes where byte != UInt8(ascii: "\n") {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), value < pid_t.max / 10 else { return nil }
            value = value * 10 + pid_t(byte - UInt8(ascii: "0"))
        }
        return value > 0 ? value : nil
    }

    /// The entry of one process, or `nil` if it does not exist.
    static func entry(_ pid: pid_t) -> Entry? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return parse(stat: buffer[..<count], pid: pid)
    }

    /// Parses `PID (COMM) STATE PPID PGRP SESSION …`; the command name may
    /// hold spaces and parentheses, so fields are counted from the last `)`.
    package static func parse(stat bytes: some Collection<UInt8>, pid: pid_t) -> Entry? {
        let bytes = Array(bytes)
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // state ppid pgrp session tty tpgid flags minflt cminflt majflt
        // cmajflt utime stime cutime cstime priority nice threads
        // itrealvalue starttime …
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "), maxSplits: 20)
        guard fields.count >= 4,
              let state = fields[0].first,
              let parent = pid_t(String(decoding: fields[1], as: UTF8.self)),
              let group = pid_t(String(decoding: fields[2], as: UTF8.self)),
              let session = pid_t(String(decoding: fields[3], as: UTF8.self))
        else { return nil }
        let started = fields.count > 19 ? UInt64(String(decoding: fields[19], as: UTF8.self)) ?? 0 : 0
        return Entry(pid: pid, state: Character(UnicodeScalar(state)), parent: parent, group: group, session: session, startTime: started)
    }

    /// Whether any process of group `pgid` is still running (zombies aside).
    static func groupIsAlive(_ pgid: pid_t) -> Bool {
        // ESRCH: nobody left, not even a zombie. Otherwise look closer.
        if killpg(pgid, 0) != 0 && errno == ESRCH { return false }
        return members(of: pgid).contains { !$0.isDead }
    }
}
