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
    }
}

/// Status lines name the command as the user gave it (issue 12): quoted as
/// a shell would need, shortened, escaped; never a word guessed from a script.
@Suite struct CommandNameTests {
    @Test func theWordsAreTheUsersNotAGuess() {
        #expect(RunResult.name(of: ["/usr/bin/swift", "build"]) == "/usr/bin/swift build")
        #expect(RunResult.name(of: ["sh", "-c", "exit 3"]) == "sh -c 'exit 3'")
        #expect(RunResult.name(of: ["sh", "-c", "echo hi; sleep 2"]) == "sh -c 'echo hi; sleep 2'")
        #expect(RunResult.name(of: ["python3", "-c", "n=input(\"name? \")"]) == "python3 -c 'n=input(\"name? \")'")
    }

    @Test func aShellOptionShowsTheShellLine() {
        #expect(RunResult.name(of: ["make", "&&", "./run"], shell: "sh") == "sh -c 'make && ./run'")
    }

    @Test func singleQuotesAndControlCharactersAreEscaped() {
        #expect(RunResult.name(of: ["echo", "it's"]) == #"echo 'it'\''s'"#)
        #expect(RunResult.name(of: ["printf", "a\u{1B}[31m\nb"]) == #"printf 'a\e[31m\nb'"#)
    }

    @Test func longWordsAndLongCommandsAreShortened() {
        let script = "echo " + String(repeating: "x", count: 100) + "; sleep 2"
        let shown = RunResult.name(of: ["sh", "-c", script])
        #expect(shown.hasPrefix("sh -c 'echo xxx"))
        #expect(shown.hasSuffix("; sleep 2'"))
        #expect(shown.contains("…"))
        #expect(shown.count < 60)
        let many = RunResult.name(of: ["cc"] + (1...40).map { "file\($0).c" })
        #expect(many.hasPrefix("cc file1.c file2.c"))
        #expect(many.hasSuffix(" …"))
        #expect(many.count <= CommandName.lineLimit + 2)
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
