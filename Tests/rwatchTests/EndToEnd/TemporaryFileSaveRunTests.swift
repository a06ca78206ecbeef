import Glibc
import Testing
import TestSupport

/// A save through a temporary file, renamed over the real one (or a backup
/// or probe made and deleted), runs the command once, with the real path
/// only: in `RWATCH_PATHS`, in the events file and in `--print-events`,
/// at `-d 0` and at the default debounce, on inotify and polled.
@Suite struct TemporaryFileSaveRunTests {
    /// The paths of each complete run, one run per line of `runs`.
    private func runs(_ scratch: Scratch) -> [[String]] {
        scratch.read("runs").split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .map { $0.split(separator: "|").map(String.init) }
    }

    private func runs(_ scratch: Scratch, with path: String) -> Int {
        runs(scratch).filter { $0.contains(path) }.count
    }

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
        let rwatch = RWatch(["-p", "--print-events", "--no-default-ignore", "-d", debounce] + poll + ["-w", "watched", "--",
                             "sh", "-c", "printf '%s' \"$RWATCH_PATHS\" | tr '\\n' '|' >> runs; echo >> runs; cat \"$RWATCH_EVENTS_FILE\" >> events"],
                            in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        // Saves a marker until a run reports it: the watch is in place, and
        // every run before it has started.
        func mark(_ name: String) -> Bool {
            var attempt = 0
            return eventually {
                attempt += 1
                if attempt % 100 == 1 { scratch.write("watched/" + name, "\(attempt)") }
                return runs(scratch, with: scratch.file("watched/" + name)) > 0
            }
        }
        #expect(mark("zz-ready"))
        for round in 0..<3 {
            save.save(file, "int x = \(round);\n")
            #expect(eventually { runs(scratch, with: file) >= round + 1 })
            #expect(mark("zz-after-\(round)"))
        }
        let all = runs(scratch)
        #expect(runs(scratch, with: file) == 3, "\(save) at -d \(debounce), \(backend): \(all)")
        let expected = Set([file] + ["zz-ready", "zz-after-0", "zz-after-1", "zz-after-2"].map { scratch.file("watched/" + $0) })
        let strays = Set(all.flatMap { $0 }).subtracting(expected)
        #expect(strays.isEmpty, "\(save) at -d \(debounce), \(backend): \(strays)")
        let temporary = save.temporaryName(for: "app.c")
        #expect(!scratch.read("events").contains(temporary), "\(save): \(scratch.read("events"))")
        #expect(!rwatch.stderr.contains(temporary), "\(save): \(rwatch.stderr)")
        #expect(rwatch.stderr.contains("app.c"), "--print-events names the real path: \(rwatch.stderr)")
    }
}
