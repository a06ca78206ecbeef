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
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let file = scratch.file("watched/app.c")
        scratch.write("watched/app.c", "int x;\n")
        let poll = backend == "poll" ? ["--poll=25ms"] : []
        // Each run writes its paths to `runs` (one line), and its events file to `events`.
        let command = RunLog.command.dropLast() + [RunLog.command.last! + "; cat \"$RWATCH_EVENTS_FILE\" >> events"]
        let rwatch = RWatch(["-p", "--print-events", "--no-default-ignore", "-d", debounce] + poll + ["-w", "watched", "--"] + command,
                            in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        // A marker saved until a run reports it: the watch is in place, and
        // every run before it has started.
        #expect(RunLog.mark(scratch, "zz-ready"))
        for round in 0..<3 {
            save.save(file, "int x = \(round);\n")
            #expect(eventually { RunLog.runs(scratch, with: file) >= round + 1 })
            #expect(RunLog.mark(scratch, "zz-after-\(round)"))
        }
        let all = RunLog.runs(scratch)
        #expect(RunLog.runs(scratch, with: file) == 3, "\(save) at -d \(debounce), \(backend): \(all)")
        let expected = Set([file] + ["zz-ready", "zz-after-0", "zz-after-1", "zz-after-2"].map { scratch.file("watched/" + $0) })
        let strays = Set(all.flatMap { $0 }).subtracting(expected)
        #expect(strays.isEmpty, "\(save) at -d \(debounce), \(backend): \(strays)")
        let temporary = save.temporaryName(for: "app.c")
        #expect(!scratch.read("events").contains(temporary), "\(save): \(scratch.read("events"))")
        #expect(!rwatch.stderr.contains(temporary), "\(save): \(rwatch.stderr)")
        #expect(rwatch.stderr.contains("app.c"), "--print-events names the real path: \(rwatch.stderr)")
    }

    /// A save through a temporary file that several polling passes see
    /// (an editor slow to write it, or a loaded machine): the file is held
    /// for the save window from when a pass first found it, as inotify's
    /// are, not for one pass. The saving process takes 100 ms between
    /// making the temporary file and renaming it; passes come every 25 ms.
    @Test func aSlowSaveSeenByManyPassesIsOneRunOfTheRealPath() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let file = scratch.file("watched/app.c")
        scratch.write("watched/app.c", "int x;\n")
        let rwatch = RWatch(["-p", "--no-default-ignore", "-d", "0", "--poll=25ms", "-w", "watched", "--"] + RunLog.command,
                            in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(RunLog.mark(scratch, "zz-ready"))
        for round in 0..<3 {
            let save = "printf 'int x = %s;' \"$1\" > \"$0.tmp.42\" && sleep 0.1 && mv \"$0.tmp.42\" \"$0\""
            #expect(Command.run(["sh", "-c", save, file, "\(round)"]).status == 0)
            #expect(eventually { RunLog.runs(scratch, with: file) >= round + 1 })
            #expect(RunLog.mark(scratch, "zz-after-\(round)"))
        }
        let all = RunLog.runs(scratch)
        #expect(RunLog.runs(scratch, with: file) == 3, "\(all)")
        #expect(!all.joined().contains { $0.contains(".tmp.42") }, "\(all)")
    }
}
