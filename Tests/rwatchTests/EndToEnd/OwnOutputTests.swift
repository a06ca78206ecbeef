import Glibc
import Testing
import TestSupport

/// rwatch's own output files (standard output and error sent to files in
/// the watched tree, `--log-file`) are never a change: `rwatch make >
/// build.log 2>&1` or `rwatch events > events.log` in the tree would
/// otherwise feed on themselves for ever. The harness sends rwatch's
/// output to files in the scratch directory, which these tests watch;
/// `-v` names the first event of each such file that was dropped, which
/// is what the tests wait for.
@Suite struct OwnOutputTests {
    @Test func runsAreStartedOnlyByChangesNotByRwatchsOwnOutput() {
        let scratch = Scratch()
        defer { scratch.remove() }
        // The command's record is kept outside the watched tree.
        let record = Scratch()
        defer { record.remove() }
        let rwatch = RWatch(["-v", "--log-file", "rwatch.log", "--", "sh", "-c", "echo \"[$RWATCH_PATHS]\" >> \"$0\"", record.file("runs.txt")],
                            in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually { rwatch.stderr.contains("exited 0") }, "\(rwatch.stderr)")
        scratch.write("a.txt", "a")
        #expect(eventually { record.read("runs.txt").contains("a.txt") }, "\(rwatch.stderr)")
        for name in [".rwatch-stderr-", "rwatch.log"] {
            #expect(eventually { rwatch.stderr.split(separator: "\n").contains { $0.contains("not a change:") && $0.contains(name) } },
                    "\(rwatch.stderr)")
        }
        let runs = record.read("runs.txt").split(separator: "\n")
        #expect(!runs.contains { $0.contains(".rwatch-") || $0.contains("rwatch.log") }, "\(runs)")
    }

    @Test func eventsWrittenToAFileInTheTreeAreNotEventsThemselves() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let rwatch = RWatch(["events", "-v"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { scratch.write("x.txt", "\(attempt)") }
            return rwatch.stdout.contains("x.txt")
        }, "\(rwatch.stderr)")
        #expect(eventually { rwatch.stderr.contains("not a change:") && rwatch.stderr.contains(".rwatch-stdout-") }, "\(rwatch.stderr)")
        #expect(!rwatch.stdout.contains(".rwatch-"), "\(rwatch.stdout)")
    }
}
