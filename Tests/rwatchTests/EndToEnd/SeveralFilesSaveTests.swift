import Glibc
import Testing
import TestSupport

/// One save of several files is one run: an edited file goes out at once,
/// a new one waits the save window in case it was a temporary file, and
/// the batch waits for it rather than running twice, on every backend.
@Suite struct SeveralFilesSaveTests {
    enum Backend: String, CaseIterable { case inotify, poll, service }

    @Test(arguments: Backend.allCases)
    func anEditedFileAndANewOneSavedTogetherAreOneRun(backend: Backend) {
        let outcome = QuickSave.attempts { () -> (quick: Bool, outcome: (runs: [String], stderr: String)) in
            let served = backend == .service ? ServedRoot() : nil
            defer { _ = served?.stop() }
            let scratch = served?.scratch ?? Scratch()
            defer { if served == nil { scratch.remove() } }
            let directory = served?.root ?? scratch.path
            let src = directory + "/src"
            mkdir(src, 0o755)
            TemporaryDirectory.write(bytes: Array((src + "/a.py").utf8), "v0\n")
            let flags = backend == .poll ? ["--poll=50ms"] : []
            let record = scratch.file("runs")
            let rwatch = RWatch(["-p", "-w", "src"] + flags + ["--", "sh", "-c", #"echo "$RWATCH_PATHS" | tr '\n' ' ' >> "$0"; echo >> "$0""#, record],
                                in: directory, environment: served.map { ["WATCHMAN_SOCK": $0.sock] } ?? [:], scratch: scratch)
            defer { rwatch.interrupt() }
            // Armed: a probe's run, then the save of two files.
            var attempt = 0
            #expect(eventually {
                attempt += 1
                if attempt % 40 == 1 { TemporaryDirectory.write(bytes: Array((src + "/probe").utf8), "\(attempt)") }
                return !Scratch.read(record).isEmpty
            }, "\(rwatch.stderr)")
            if backend == .service { #expect(rwatch.stderr.contains("through rwatch serve"), "\(rwatch.stderr)") }
            // A probe written as the first run went may run again: one more
            // change, run last, leaves nothing of the arming pending.
            TemporaryDirectory.write(bytes: Array((src + "/settled").utf8), "")
            #expect(eventually { Scratch.read(record).split(separator: "\n").last?.contains("settled") == true })
            let before = Scratch.read(record).split(separator: "\n").count
            // In place, as an editor's save-all writes them (the fence is held already).
            let quick = QuickSave.run {
                for (name, text) in [("a.py", "v1\n"), ("b.py", "new\n")] {
                    let handle = fopen(src + "/" + name, "we")
                    fputs(text, handle)
                    fclose(handle)
                }
            }
            #expect(eventually { Scratch.read(record).contains("b.py") }, "\(rwatch.stderr)")
            // Anything more would have come by the end of a second save's run.
            TemporaryDirectory.write(bytes: Array((src + "/probe").utf8), "last")
            #expect(eventually { Scratch.read(record).split(separator: "\n").last?.contains("probe") == true })
            let runs = Scratch.read(record).split(separator: "\n").dropFirst(before).map(String.init)
            return (quick, (runs, rwatch.stderr))
        }
        #expect(outcome.runs.count == 2, "\(outcome.runs) \(outcome.stderr)")
        #expect(outcome.runs.first?.contains("a.py") == true && outcome.runs.first?.contains("b.py") == true, "\(outcome.runs)")
    }
}
