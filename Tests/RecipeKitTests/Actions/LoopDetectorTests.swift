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

    @Test func theIgnoreFlagNamesTheCommonDirectoryElseTheFiles() {
        #expect(LoopDetector.ignoreFlags(for: ["/w/dist/a.js", "/w/dist/b.css"], base: "/w") == ["-i 'dist/**'"])
        #expect(LoopDetector.ignoreFlags(for: ["/w/out.txt", "/w/log/x"], base: "/w") == ["-i 'out.txt'", "-i 'log/x'"])
        #expect(LoopDetector.ignoreFlags(for: ["/w/it's/a"], base: "/w") == [#"-i 'it'\''s/**'"#])
    }
}
