import Glibc
import Testing
import TestSupport

/// When inotify runs out of watches, rwatch says whose watches filled the
/// user's budget. The budget is lowered in a user namespace of its own
/// (`/proc/sys/user/max_inotify_watches` there), so nothing else on the
/// machine runs short.
@Suite struct WatchLimitTests {
    static let tenWatches = ["unshare", "--user", "--map-root-user", "sh", "-c",
                             #"echo 10 > /proc/sys/user/max_inotify_watches || exit 97; exec "$@""#, "ten-watches"]

    @Test func runningOutOfWatchesNamesTheProcessesHoldingThem() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o755)
        for index in 0..<30 { mkdir(scratch.file("watched/d\(index)"), 0o755) }
        let rwatch = RWatch(["-p", "-w", "watched", "--", "true"], in: scratch.path, wrapper: Self.tenWatches, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually { rwatch.stderr.contains("this one)") }, "\(rwatch.stderr)")
        let lines = rwatch.stderr.split(separator: "\n")
        #expect(lines.contains { $0.contains("inotify watch limit reached") }, "\(rwatch.stderr)")
        #expect(lines.contains { $0.hasPrefix("rwatch: warning: the most inotify watches of this user are held by rwatch (pid \(rwatch.pid), this one): ") },
                "\(rwatch.stderr)")
    }

    @Test func withInotifyForcedTheErrorComesAfterTheSameLine() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o755)
        for index in 0..<30 { mkdir(scratch.file("watched/d\(index)"), 0o755) }
        let rwatch = RWatch(["--watch-backend", "inotify", "-p", "-w", "watched", "--", "true"], in: scratch.path, wrapper: Self.tenWatches, scratch: scratch)
        #expect(rwatch.waitForExit() == 2, "\(rwatch.stderr)")
        let lines = rwatch.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(rwatch.stderr)")
        #expect(lines.first?.contains("held by rwatch (pid \(rwatch.pid), this one)") == true, "\(rwatch.stderr)")
        #expect(lines.last?.contains("inotify watch limit reached") == true, "\(rwatch.stderr)")
    }
}
