@testable import RecipeKit
import Testing

@Suite struct FormattingTests {
    @Test func durationsReadAsMillisecondsOrSeconds() {
        #expect(Terminal.format(.milliseconds(12)) == "12 ms")
        #expect(Terminal.format(.milliseconds(1204)) == "1.20 s")
        #expect(Terminal.format(.seconds(61)) == "61.00 s")
    }

    @Test func jsonLinesEscapeEveryControlCharacter() {
        let event = FileEvent(path: "/a \"b\"\\\n\u{1}", kind: .movedTo, isDirectory: true, cookie: 3)
        #expect(JSONLine.encode(event) == #"{"path":"/a \"b\"\\\n\u0001","kind":"movedTo","isDirectory":true}"#)
    }

    @Test func aChainSummaryNamesEveryStepWithItsStatus() {
        let steps = [
            RunResult.Step(name: "lint", arguments: ["swiftlint"], status: .exited(0), duration: .milliseconds(120)),
            RunResult.Step(name: "build", arguments: ["make"], status: .exited(2), duration: .milliseconds(1300)),
        ]
        let result = RunResult(steps: steps, batch: nil)
        #expect(result.summary == "lint ✓ 120 ms → build ✗ 1.30 s")
        #expect(!result.succeeded)
        #expect(RunResult.name(of: ["/usr/bin/swift", "build"]) == "swift")
        #expect(RunResult.name(of: ["sh", "-c", "make -j4 all"]) == "make")
    }
}

@Suite struct PrintingTests {
    @Test func aPrefixWithoutATrailingSpaceGetsOne() {
        #expect(Terminal.separated("build:") == "build: ")
        #expect(Terminal.separated("[server] ") == "[server] ")
        #expect(Terminal.separated("tab\t") == "tab\t")
        #expect(Terminal.separated("") == "")
    }

    @Test func aTailLineReadsAsItsText() {
        let line = Line(path: "/var/log/app.log", text: "error: disk full")
        #expect("\(line)" == "error: disk full")
        #expect(String(describing: line) == "error: disk full")
    }
}
