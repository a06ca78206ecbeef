import Glibc
import Testing
import TestSupport

/// One save of several files is one run: an edited file goes out at once,
/// a new one waits the save window in case it was a temporary file, and
/// the batch waits for it rather than running twice.
@Suite struct SeveralFilesSaveTests {
    @Test func anEditedFileAndANewOneSavedTogetherAreOneRun() {
        let outcome = QuickSave.attempts { () -> (quick: Bool, outcome: (runs: [String], stderr: String)) in
            let scratch = Scratch()
            defer { scratch.remove() }
            mkdir(scratch.file("src"), 0o755)
            scratch.write("src/a.py", "v0\n")
            let rwatch = RWatch(["-p", "-w", "src", "--", "sh", "-c", #"echo "$RWATCH_PATHS" | tr '\n' ' ' >> runs; echo >> runs"#],
                                in: scratch.path, scratch: scratch)
            defer { rwatch.interrupt() }
            #expect(eventually { rwatch.stderr.contains("waiting for a change") || rwatch.stderr.contains("watching") }, "\(rwatch.stderr)")
            // Armed: a probe's run, then the save of two files.
            var attempt = 0
            #expect(eventually {
                attempt += 1
                if attempt % 40 == 1 { scratch.write("src/probe", "\(attempt)") }
                return !scratch.read("runs").isEmpty
            }, "\(rwatch.stderr)")
            let before = scratch.read("runs").split(separator: "\n").count
            // In place, as an editor's save-all writes them (the fence is held already).
            let quick = QuickSave.run {
                for (name, text) in [("src/a.py", "v1\n"), ("src/b.py", "new\n")] {
                    let handle = fopen(scratch.file(name), "we")
                    fputs(text, handle)
                    fclose(handle)
                }
            }
            #expect(eventually { scratch.read("runs").contains("b.py") }, "\(rwatch.stderr)")
            // Anything more would have come by the end of a second save's run.
            scratch.write("src/probe", "last")
            #expect(eventually { scratch.read("runs").split(separator: "\n").last?.contains("probe") == true })
            let runs = scratch.read("runs").split(separator: "\n").dropFirst(before).map(String.init)
            return (quick, (runs, rwatch.stderr))
        }
        #expect(outcome.runs.count == 2, "\(outcome.runs) \(outcome.stderr)")
        #expect(outcome.runs.first?.contains("a.py") == true && outcome.runs.first?.contains("b.py") == true, "\(outcome.runs)")
    }
}
