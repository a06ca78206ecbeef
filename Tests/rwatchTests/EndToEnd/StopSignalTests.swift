import Glibc
import Testing
import TestSupport

/// Stop signals at any moment (issue 15, class 4): rwatch exits with 128+N
/// and leaves no process of its groups behind, whether the signal comes in
/// its first microseconds, while it spawns, or while it compiles a recipe.
///
/// Every process rwatch starts inherits `RWATCH_TEST_MARK` from it, so a
/// leftover is found by its environment, even one whose pid nobody learnt.
@Suite struct StopSignalTests {
    /// Pids of running processes (zombies aside) whose environment holds `mark`.
    private func marked(_ mark: String, besides excluded: pid_t) -> [pid_t] {
        guard let proc = opendir("/proc") else { return [] }
        defer { closedir(proc) }
        var found: [pid_t] = []
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = pid_t(name), pid != excluded, isAlive(pid) else { continue }
            if Scratch.read("/proc/\(pid)/environ").contains("RWATCH_TEST_MARK=\(mark)\u{0}") { found.append(pid) }
        }
        return found
    }

    /// Whether rwatch's signal masks (`SigBlk` or `SigIgn` in its status)
    /// already hold `number`: it has begun taking the stop signals over.
    /// SIGPIPE is caught (`SigCgt`), not blocked, in the main thread; only
    /// for it is a handler the sign (the Swift runtime catches SIGQUIT
    /// from the start, for its backtraces).
    private func takingOver(_ pid: pid_t, _ number: Int32) -> Bool {
        // The shell that execs rwatch catches or ignores signals of its own
        // (SIGQUIT): only rwatch's masks count.
        guard Scratch.read("/proc/\(pid)/comm").hasPrefix("rwatch") else { return false }
        let bit = UInt64(1) << UInt64(number - 1)
        for line in Scratch.read("/proc/\(pid)/status").split(separator: "\n")
        where line.hasPrefix("SigBlk:") || line.hasPrefix("SigIgn:") || (number == SIGPIPE && line.hasPrefix("SigCgt:")) {
            let hex = line.split(separator: "\t").last.map(String.init) ?? ""
            if let mask = UInt64(hex, radix: 16), mask & bit != 0 { return true }
        }
        return false
    }

    @Test func aStopSignalAtManyEarlyMomentsEndsRwatchWithNothingLeft() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        // Signals whose default action ends a process: Ctrl-\\, SIGALRM or
        // a broken pipe left the command running.
        let signals = [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGALRM, SIGPIPE]
        // Moments counted in reads of rwatch's /proc entry (tens of
        // microseconds each) after one of two anchors: the spawn (from
        // before rwatch's exec to its first run's grandchild), or the moment
        // rwatch begins taking the signals over (the race a handler
        // installed too late, or a signal ignored meanwhile, would lose).
        // No sleeping: the moments differ by work done, not by time.
        let moments = [0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048]
        for round in 0..<(moments.count * 6) {
            let number = signals[round % signals.count]
            let moment = moments[round % moments.count]
            let fromTakeover = round % 2 == 1
            let mark = "\(getpid())-\(round)-\(UInt32.random(in: 0...UInt32.max))"
            let rwatch = RWatch(["-w", "watched", "--", "sh", "-c", "sleep 300 & sleep 300; :"],
                                in: scratch.path, environment: ["RWATCH_TEST_MARK": mark], scratch: scratch)
            if fromTakeover {
                _ = eventually(.seconds(10)) { takingOver(rwatch.pid, number) || rwatch.exitStatus() != nil }
            }
            for _ in 0..<moment { _ = Scratch.read("/proc/\(rwatch.pid)/stat") }
            kill(rwatch.pid, number)
            let status = rwatch.waitForExit(.seconds(20))
            if status == nil {
                kill(rwatch.pid, SIGKILL)
                _ = rwatch.waitForExit()
            }
            let anchor = fromTakeover ? "the takeover" : "the spawn"
            #expect(status == 128 + number, "round \(round): signal \(number) \(moment) reads after \(anchor) gave \(String(describing: status)); \(rwatch.stderr)")
            // rwatch waits until its groups are gone before it exits.
            #expect(marked(mark, besides: rwatch.pid).isEmpty, "round \(round): left behind \(marked(mark, besides: rwatch.pid))")
            for pid in marked(mark, besides: rwatch.pid) { kill(pid, SIGKILL) }
        }
    }

    @Test func sigtermDuringARecipeCompileStopsTheCompilerAndExits143() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let mark = "\(getpid())-compile-\(UInt32.random(in: 0...UInt32.max))"
        // A recipe not in the cache: its content is new.
        scratch.write("slow.swift", """
            import RecipeKit

            // \(mark)
            let recipe = Recipe("slow", "never gets to run") {
                Signal.just(ChangeBatch([])).run(["true"])
            }

            """)
        let rwatch = RWatch(["run", "slow.swift"], in: scratch.path,
                            environment: ["RWATCH_TEST_MARK": mark, "XDG_CACHE_HOME": scratch.file("cache")], scratch: scratch)
        // The compiler runs (a process of rwatch's with the mark).
        #expect(eventually(.seconds(60)) { !marked(mark, besides: rwatch.pid).isEmpty })
        kill(rwatch.pid, SIGTERM)
        let status = rwatch.waitForExit(.seconds(30))
        if status == nil { kill(rwatch.pid, SIGKILL) }
        #expect(status == 143, "\(rwatch.stderr)")
        // rwatch waits until the compiler's group is gone before it exits.
        #expect(marked(mark, besides: rwatch.pid).isEmpty, "left behind \(marked(mark, besides: rwatch.pid))")
        for pid in marked(mark, besides: rwatch.pid) { kill(pid, SIGKILL) }
    }
}
