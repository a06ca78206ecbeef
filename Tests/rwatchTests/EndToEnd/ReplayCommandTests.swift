import Glibc
import Testing
import TestSupport

/// `rwatch events --json` records a session with each event's time, and
/// `rwatch replay` plays it through a recipe, running nothing.
@Suite struct ReplayCommandTests {
    @Test func aRecordedSessionReplaysThroughARecipeWithItsOwnTimes() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("src"), 0o700)
        let rwatch = RWatch(["events", "--json", "src"], in: scratch.path, scratch: scratch)
        _ = RunLog.writeUntil(scratch, "src/ready") { rwatch.stdout.contains("ready") }
        scratch.write("src/a.c", "int a;\n")
        #expect(eventually { rwatch.stdout.contains("a.c\",\"kind\":\"closedWrite\"") })
        scratch.write("src/b.c", "int b;\n")
        #expect(eventually { rwatch.stdout.contains("b.c\",\"kind\":\"closedWrite\"") })
        _ = rwatch.interrupt()
        let session = rwatch.stdout
        // Every line has a time, and time never goes back.
        let times = session.split(separator: "\n").compactMap { line -> Double? in
            guard let start = line.firstRange(of: "\"time\":")?.upperBound else { return nil }
            return Double(line[start...].prefix { $0 != "}" })
        }
        #expect(times.count == session.split(separator: "\n").count)
        #expect(times == times.sorted())
        scratch.write("session.jsonl", session)
        scratch.write("build.swift", """
            import RecipeKit
            let recipe = Recipe("build", "make on a change") {
                FileWatcher.watch(["src"]).batched(.milliseconds(50)).run(["make"])
            }
            """)
        let replay = RWatch.run(["replay", "session.jsonl", "./build.swift"], in: scratch.path, scratch: scratch)
        #expect(replay.status == 0, "\(replay.stderr)")
        let starts = replay.stdout.split(separator: "\n").filter { $0.contains(" start ") }
        // Each start is a run of make for what changed (the two saves may
        // have come close enough for one batch).
        #expect(!starts.isEmpty && starts.allSatisfy { $0.contains("make  (changed: ") }, "\(replay.stdout)")
        #expect(starts.contains { $0.contains("src/b.c") }, "\(replay.stdout)")
        let json = RWatch.run(["replay", "session.jsonl", "./build.swift", "--json"], in: scratch.path, scratch: scratch)
        #expect(json.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("{\"time\":") && $0.hasSuffix("]}") }, "\(json.stdout)")
    }

    @Test func aSessionWithoutTimesIsOneLineAndExitTwo() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("src"), 0o700)
        scratch.write("session.jsonl", #"{"path":"/x/a.c","kind":"modified","isDirectory":false}"# + "\n")
        scratch.write("build.swift", "import RecipeKit\nlet recipe = Recipe(\"b\") { FileWatcher.watch([\"src\"]).batched(.zero).run([\"make\"]) }\n")
        let replay = RWatch.run(["replay", "session.jsonl", "./build.swift"], in: scratch.path, scratch: scratch)
        #expect(replay.status == 2)
        let expected = "rwatch: error: \(scratch.file("session.jsonl")): line 1: no \"time\" (record the session with rwatch events --json)\n"
        #expect(replay.stderr.hasSuffix(expected), "\(replay.stderr)")
    }
}
