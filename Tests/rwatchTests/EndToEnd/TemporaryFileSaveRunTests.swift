import Glibc
import Testing
import TestSupport

/// A save through a temporary file, renamed over the real one (or a backup
/// or probe made and deleted), runs the command once, with the real path
/// only: in `RWATCH_PATHS`, in the events file and in `--print-events`,
/// at `-d 0` and at the default debounce, on inotify and polled.
@Suite struct TemporaryFileSaveRunTests {
    static let cases: [(TemporaryFileSave, String, String)] =
        TemporaryFileSave.allCases.flatMap { save in [(save, "0", "inotify"), (save, "50ms", "inotify"), (save, "0", "poll")] }

    @Test(arguments: cases)
    func eachSaveIsOneRunOfTheRealPath(_ save: TemporaryFileSave, _ debounce: String, _ backend: String) {
        let (scratch, rwatch) = QuickSave.attempts(discarding: { $0.scratch.remove() }) { saves(save, debounce, backend) }
        defer { scratch.remove() }
        let file = scratch.file("watched/app.c")
        let all = RunLog.runs(scratch)
        #expect(RunLog.runs(scratch, with: file) == 3, "\(save) at -d \(debounce), \(backend): \(all)")
        let expected = Set([file] + ["zz-ready", "zz-after-0", "zz-after-1", "zz-after-2"].map { scratch.file("watched/" + $0) })
        let strays = Set(all.flatMap { $0 }).subtracting(expected)
        #expect(strays.isEmpty, "\(save) at -d \(debounce), \(backend): \(strays)")
        let temporary = save.temporaryName(for: "app.c")
        #expect(!scratch.read("events").contains(temporary), "\(save): \(scratch.read("events"))")
        let stderr = rwatch.stderr
        #expect(!stderr.contains(temporary), "\(save): \(stderr)")
        #expect(stderr.contains("app.c"), "--print-events names the real path: \(stderr)")
    }

    /// Watches with `-p --print-events`, saves `watched/app.c` three times
    /// with `save`, each followed by a marker reported; returns whether the
    /// saves were quick, the scratch directory (`runs` and `events` in it)
    /// and the rwatch that ran, stopped.
    private func saves(_ save: TemporaryFileSave, _ debounce: String, _ backend: String)
        -> (quick: Bool, outcome: (scratch: Scratch, rwatch: RWatch)) {
        let scratch = Scratch()
        mkdir(scratch.file("watched"), 0o700)
        let file = scratch.file("watched/app.c")
        scratch.write("watched/app.c", "int x;\n")
        let poll = backend == "poll" ? ["--poll=25ms"] : []
        // Each run writes its paths to `runs` (one line), and its events file to `events`.
        let command = RunLog.command.dropLast() + [RunLog.command.last! + "; cat \"$RWATCH_EVENTS_FILE\" >> events"]
        let rwatch = RWatch(["-p", "--print-events", "--no-default-ignore", "-d", debounce] + poll + ["-w", "watched", "--"] + command,
                            in: scratch.path, scratch: scratch)
        // A marker saved until a run reports it: the watch is in place, and
        // every run before it has started.
        #expect(RunLog.mark(scratch, "zz-ready"))
        var quick = true
        for round in 0..<3 {
            quick = save.save(file, "int x = \(round);\n") && quick
            #expect(eventually { RunLog.runs(scratch, with: file) >= round + 1 })
            #expect(RunLog.mark(scratch, "zz-after-\(round)"))
        }
        rwatch.interrupt()
        return (quick, (scratch, rwatch))
    }

    /// A save through a temporary file that several polling passes see
    /// (an editor slow to write it, or a loaded machine): the file is held
    /// for the save window from when a pass first found it, as inotify's
    /// are, not for one pass. The saving process takes 100 ms between
    /// making the temporary file and renaming it; passes come every 25 ms.
    @Test func aSlowSaveSeenByManyPassesIsOneRunOfTheRealPath() {
        let (scratch, all) = QuickSave.attempts(discarding: { $0.scratch.remove() }) { slowSaves() }
        defer { scratch.remove() }
        #expect(RunLog.runs(scratch, with: scratch.file("watched/app.c")) == 3, "\(all)")
        #expect(!all.joined().contains { $0.contains(".tmp.42") }, "\(all)")
    }

    /// Three slow saves, polled; whether each took less than the window in
    /// all, the scratch directory, and the runs.
    private func slowSaves() -> (quick: Bool, outcome: (scratch: Scratch, runs: [[String]])) {
        let scratch = Scratch()
        mkdir(scratch.file("watched"), 0o700)
        let file = scratch.file("watched/app.c")
        scratch.write("watched/app.c", "int x;\n")
        let rwatch = RWatch(["-p", "--no-default-ignore", "-d", "0", "--poll=25ms", "-w", "watched", "--"] + RunLog.command,
                            in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(RunLog.mark(scratch, "zz-ready"))
        var quick = true
        for round in 0..<3 {
            let started = ContinuousClock.now
            scratch.write("watched/app.c.tmp.42", "int x = \(round);")
            usleep(100_000)
            #expect(rename(file + ".tmp.42", file) == 0)
            quick = ContinuousClock.now - started < QuickSave.window && quick
            #expect(eventually { RunLog.runs(scratch, with: file) >= round + 1 })
            #expect(RunLog.mark(scratch, "zz-after-\(round)"))
        }
        return (quick, (scratch, RunLog.runs(scratch)))
    }
}
