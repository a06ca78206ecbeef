@testable import RecipeKit
import Testing

/// A command that keeps starting itself, told apart from one started by
/// edits, on times passed in (nanoseconds).
@Suite struct LoopDetectorTests {
    @Test func threeRunsInARowStartedOnlyByWhatTheRunBeforeWroteAreToldOnce() {
        var detector = LoopDetector()
        var now: Int64 = 1_000_000_000
        #expect(detector.started(at: now, paths: []) == nil)  // the first run: no path
        for run in 1...6 {
            // The run writes dist/app.js while it goes; its end starts the next.
            let written = now + 5_000_000
            now += 50_000_000
            detector.ended(at: now)
            now += 10_000_000
            let warning = detector.started(at: now, paths: [("/w/dist/app.js", written)])
            #expect((warning != nil) == (run == 3), "run \(run)")
            if let warning { #expect(warning == .init(runs: 3, paths: ["/w/dist/app.js"])) }
        }
    }

    @Test func aRunStartedByAnEditOrByHandEndsTheStreak() {
        var detector = LoopDetector()
        var now: Int64 = 1_000_000_000
        _ = detector.started(at: now, paths: [])
        for run in 1...5 {
            let written = now + 1_000_000
            now += 50_000_000
            detector.ended(at: now)
            now += 100_000_000
            // Every other run comes from a file saved long after the run before ended.
            let paths: [(path: FilePath, modified: Int64?)] = run.isMultiple(of: 2)
                ? [(FilePath("/w/src/a.c"), now - 1)] : [(FilePath("/w/dist/a.o"), written)]
            #expect(detector.started(at: now, paths: paths) == nil)
        }
        // A path that is gone tells nothing; with none left, no loop.
        now += 1
        detector.ended(at: now)
        #expect(detector.started(at: now + 1, paths: [("/w/dist/gone", nil)]) == nil)
    }

    /// 20 saves of a server's source under `-r`, a person's pace apart:
    /// the server is alive at every save, and rwatch stops it for each.
    @Test func humanPacedEditsOfARestartedServersSourceAreNeverALoop() {
        var detector = LoopDetector()
        var now: Int64 = 1_000_000_000
        _ = detector.started(at: now, paths: [])
        for edit in 1...20 {
            // A person saves 0.6 s to 4 s after the last restart.
            let saved = now + Int64(600 + (edit * 373) % 3_400) * 1_000_000
            now = saved + 50_000_000
            detector.ended(at: now, stopped: true)
            #expect(detector.started(at: now, paths: [("/w/srv.py", saved)]) == nil, "edit \(edit)")
        }
    }

    /// 20 saves of a built file's source, each landing while the build of
    /// the save before still runs (a queued run starts as it ends).
    @Test func humanPacedEditsDuringLongBuildsAreNeverALoop() {
        var detector = LoopDetector()
        var now: Int64 = 1_000_000_000
        _ = detector.started(at: now, paths: [])
        for edit in 1...20 {
            let saved = now + Int64(200 + (edit * 611) % 2_200) * 1_000_000
            now += 3_000_000_000
            detector.ended(at: now)
            #expect(detector.started(at: now + 1_000_000, paths: [("/w/main.c", saved)]) == nil, "edit \(edit)")
        }
    }

    @Test func aServerThatWritesAFileAsItStartsIsALoopUnderRestart() {
        var detector = LoopDetector()
        var now: Int64 = 1_000_000_000
        _ = detector.started(at: now, paths: [])
        for run in 1...4 {
            let written = now + 30_000_000
            now = written + 50_000_000
            detector.ended(at: now, stopped: true)
            let warning = detector.started(at: now, paths: [("/w/server.pid", written)])
            #expect((warning != nil) == (run == 3), "run \(run)")
        }
    }

    @Test func theWarningNamesWhatTheRunWroteNotTheEditsBesideIt() {
        var detector = LoopDetector()
        var now: Int64 = 1_000_000_000
        _ = detector.started(at: now, paths: [])
        var warning: LoopDetector.Warning?
        for _ in 1...3 {
            let edited = now + 1_000_000_000
            now += 4_000_000_000
            detector.ended(at: now)
            warning = detector.started(at: now + 1, paths: [("/w/src/a.c", edited), ("/w/build/a.o", now - 10_000_000)])
        }
        #expect(warning == .init(runs: 3, paths: ["/w/build/a.o"]))
    }

    @Test func theIgnoreFlagNamesTheCommonDirectoryElseTheFiles() {
        #expect(LoopDetector.ignoreFlags(for: ["/w/dist/a.js", "/w/dist/b.css"], base: "/w") == ["-i 'dist/**'"])
        #expect(LoopDetector.ignoreFlags(for: ["/w/out.txt", "/w/log/x"], base: "/w") == ["-i 'out.txt'", "-i 'log/x'"])
        #expect(LoopDetector.ignoreFlags(for: ["/w/it's/a"], base: "/w") == [#"-i 'it'\''s/**'"#])
    }
}
