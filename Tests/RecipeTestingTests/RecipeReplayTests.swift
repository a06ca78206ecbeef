@testable import RecipeTesting
import Testing

/// `rwatch replay`'s engine: a session read, and played through a recipe.
@Suite struct RecipeReplayTests {
    static let build = Recipe("build", "make on a change") {
        FileWatcher.watch(["src"]).batched(.milliseconds(100)).run(["make"], onBusy: .restart)
    }

    private func session(_ lines: [String]) throws -> ReplaySession {
        try ReplaySession(Array(lines.joined(separator: "\n").utf8))
    }

    @Test func aSessionPlaysAtItsOwnTimesAndTheTimelineSaysWhy() throws {
        let recorded = try session([
            #"{"path":"/w/src/a.c","kind":"modified","isDirectory":false,"time":1.5}"#,
            #"{"path":"/w/src/a.c","kind":"closedWrite","isDirectory":false,"time":1.5001}"#,
            #"{"path":"/w/src/tmp","kind":"movedFrom","isDirectory":false,"time":4}"#,
            #"{"path":"/w/src/b.c","kind":"movedTo","isDirectory":false,"time":4}"#,
        ])
        let moments = RecipeReplay.timeline(Self.build, session: recorded, workingDirectory: "/w")
        #expect(moments.map(\.what) == [.start, .end, .start, .end])
        #expect(moments[0].time == .milliseconds(1_600))
        #expect(moments[0].paths == ["src/a.c"])
        #expect(moments[2].time == .milliseconds(4_100))
        // A rename in the tree: both its paths changed.
        #expect(moments[2].paths == ["src/tmp", "src/b.c"])
        #expect(RecipeReplay.textLine(moments[0]) == "    1.60 s  start    make  (changed: src/a.c)")
        #expect(RecipeReplay.jsonLine(moments[0]) ==
            #"{"time":1.600,"event":"start","command":["make"],"detail":"changed: src/a.c","paths":["src/a.c"]}"#)
    }

    @Test func aHostileNameIsEscapedInTheTextAndKeptByteForByteInJSON() throws {
        // A newline, an escape sequence, and a byte that is not UTF-8.
        let recorded = try session([#"{"path":"/w/src/a\n\u001b[31mred\udcff.c","kind":"modified","isDirectory":false,"time":1}"#])
        let moments = RecipeReplay.timeline(Self.build, session: recorded, workingDirectory: "/w")
        let text = RecipeReplay.textLine(moments[0])
        #expect(!text.contains("\n") && !text.contains("\u{1B}"), "\(text)")
        #expect(text.contains(#"src/a\n\e[31mred\xff.c"#), "\(text)")
        #expect(RecipeReplay.jsonLine(moments[0]).contains(#""paths":["src/a\n\u001b[31mred\udcff.c"]"#))
    }

    @Test func aRecipeThatFailsSaysWhyInTheTimeline() throws {
        let recorded = try session([#"{"path":"/w/other/a.c","kind":"modified","isDirectory":false,"time":1}"#])
        let moments = RecipeReplay.timeline(Self.build, session: recorded, workingDirectory: "/w")
        #expect(moments.map(\.what) == [.error])
        #expect(moments.first?.detail.contains("/w/src") == true)
    }

    @Test(arguments: [
        ("{\"path\":\"a\",\"kind\":\"modified\"}", "line 1: no \"time\" (record the session with rwatch events --json)"),
        ("{\"path\":\"a\",\"kind\":\"changed\",\"time\":1}", "line 1: no known \"kind\""),
        ("not json", "line 1: not JSON"),
    ])
    func aBrokenSessionIsOneLineNamingItsLine(_ line: String, _ message: String) {
        #expect(throws: ReplaySession.Failure.self) { try session([line]) }
        do {
            _ = try session([line])
        } catch {
            #expect("\(error)".hasPrefix(message))
        }
    }

    /// (Its speed, for 10,000 events, is a row in BENCHMARKS.md: Benchmarks/replay.)
    @Test func aThousandEventsEachItsOwnBatchAreAThousandRuns() throws {
        let lines = (0..<1_000).map { index in
            #"{"path":"/w/src/f\#(index % 50).c","kind":"modified","isDirectory":false,"time":\#(Double(index) * 0.25)}"#
        }
        let moments = RecipeReplay.timeline(Self.build, session: try session(lines), workingDirectory: "/w")
        // Each save is 250 ms after the last: every one is its own batch.
        #expect(moments.filter { $0.what == .start }.count == 1_000)
    }
}
