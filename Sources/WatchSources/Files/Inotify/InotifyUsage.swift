#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Which processes of this user hold inotify watches, and how many: what
/// to name when `fs.inotify.max_user_watches` runs out, since the budget is
/// the user's, shared by every program that watches (an editor, a language
/// server, a second rwatch). Read from `/proc/PID/fdinfo`, where each
/// watch of an inotify descriptor is one `inotify wd:` line; processes
/// rwatch may not look into are left out.
enum InotifyUsage {
    /// One process and its watches.
    struct Holder: Equatable {
        var pid: pid_t
        var name: String
        var watches: Int
    }

    /// This user's processes holding watches, the most first.
    static func holders() -> [Holder] {
        let user = geteuid()
        var found: [Holder] = []
        _ = FileSystem.forEachName(in: "/proc") { name, _ in
            guard let pid = pid_t(String(decoding: name, as: UTF8.self)) else { return }
            var info = stat()
            guard stat("/proc/\(pid)", &info) == 0, info.st_uid == user else { return }
            let watches = watchCount(of: pid)
            guard watches > 0 else { return }
            let comm = FileSystem.read(FilePath("/proc/\(pid)/comm")) ?? "?"
            found.append(Holder(pid: pid, name: String(comm.prefix { $0 != "\n" }), watches: watches))
        }
        return found.sorted { $0.watches != $1.watches ? $0.watches > $1.watches : $0.pid < $1.pid }
    }

    /// The watches of `pid`'s inotify descriptors.
    static func watchCount(of pid: pid_t) -> Int {
        var total = 0
        var descriptors: [String] = []
        _ = FileSystem.forEachName(in: FilePath("/proc/\(pid)/fd")) { name, _ in descriptors.append(String(decoding: name, as: UTF8.self)) }
        var target = [CChar](repeating: 0, count: 64)
        for fd in descriptors {
            let length = readlink("/proc/\(pid)/fd/\(fd)", &target, target.count - 1)
            guard length > 0, String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) == "anon_inode:inotify",
                  let info = FileSystem.readBytes(FilePath("/proc/\(pid)/fdinfo/\(fd)")) else { continue }
            total += watchLines(in: info)
        }
        return total
    }

    /// The `inotify wd:` lines of an fdinfo text: one per watch.
    static func watchLines(in fdinfo: [UInt8]) -> Int {
        fdinfo.split(separator: UInt8(ascii: "\n")).filter { $0.starts(with: "inotify wd:".utf8) }.count
    }

    /// One line naming the three processes of this user that hold the most
    /// watches, and this process's own share, or nil when none is seen:
    /// `the most inotify watches of this user are held by code (pid 812):
    /// 81,920; node (pid 99): 2,048; rwatch holds 10`.
    static func summary(_ holders: [Holder] = holders(), own: pid_t = getpid()) -> String? {
        guard !holders.isEmpty else { return nil }
        let top = holders.prefix(3).map { "\(Quoted.escaped($0.name)) (pid \($0.pid)\($0.pid == own ? ", this one" : "")): \(grouped($0.watches))" }
        let mine = holders.first { $0.pid == own }.map { $0.watches } ?? 0
        let ownShare = holders.prefix(3).contains { $0.pid == own } ? "" : "; this rwatch holds \(grouped(mine))"
        return "the most inotify watches of this user are held by " + top.joined(separator: "; ") + ownShare
    }

    /// `81920` as `81,920`.
    static func grouped(_ number: Int) -> String {
        var digits = Array(String(number))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }
}
