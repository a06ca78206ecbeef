import Glibc
import WatchSources

/// One child of this process as `/proc` shows it. A supervising rwatch is
/// its descendants' subreaper, so a process whose parent died (the
/// commands of a recipe that crashed, a command's background job) becomes
/// one of these.
struct ChildProcess: Equatable {
    var pid: pid_t
    var processGroup: pid_t
    var session: pid_t
    /// `Z` for a zombie (exited, not reaped yet), `R`, `S`, `T`, ... else.
    var state: Character

    /// Every child of this process (of any of its threads).
    static func all() -> [ChildProcess] {
        var pids: [pid_t] = []
        for task in FileSystem.entries("/proc/self/task") ?? [] {
            guard let thread = Int32(task.name.string) else { continue }
            let text = (try? FileSystem.read("/proc/self/task/\(thread)/children")) ?? ""
            pids += text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters()) }
        }
        return pids.compactMap(Self.read)
    }

    /// The fields of `/proc/PID/stat`, nil once the process is gone.
    static func read(_ pid: pid_t) -> ChildProcess? {
        guard let text = try? FileSystem.read("/proc/\(pid)/stat") else { return nil }
        return parse(stat: text, pid: pid)
    }

    /// Parses `PID (COMM) STATE PPID PGRP SESSION …`; the command name may
    /// hold spaces and parentheses, so fields are counted from the last `)`.
    static func parse(stat text: String, pid: pid_t) -> ChildProcess? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count >= 4, let state = fields[0].first,
              let group = pid_t(fields[2]), let session = pid_t(fields[3]) else { return nil }
        return ChildProcess(pid: pid, processGroup: group, session: session, state: state)
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> Substring {
        var text = self
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        return text
    }
}
