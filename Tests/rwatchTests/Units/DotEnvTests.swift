import WatchSources
@testable import rwatch
import Testing

@Suite struct DotEnvTests {
    func parse(_ text: String, environment: [String: String] = [:]) throws -> [String: String] {
        Dictionary(try DotEnv.parse(text, file: "test.env") { environment[$0] }, uniquingKeysWith: { $1 })
    }

    @Test func plainAssignmentsCommentsAndExport() throws {
        let text = "# comment\n\nA=1\nexport B = two \n  C=3 # trailing comment\nD=\nE=a#b\r\n"
        #expect(try parse(text) == ["A": "1", "B": "two", "C": "3", "D": "", "E": "a#b"])
    }

    @Test func singleQuotesAreLiteral() throws {
        #expect(try parse(#"A='$HOME \n ${B} # not a comment'"#) == ["A": #"$HOME \n ${B} # not a comment"#])
    }

    @Test func doubleQuotesUnescapeAndMaySpanLines() throws {
        let text = "A=\"tab\\there \\\"q\\\" \\\\ \\$x\"\nB=\"line one\nline two\" # done\n"
        #expect(try parse(text) == ["A": "tab\there \"q\" \\ $x", "B": "line one\nline two"])
    }

    @Test func bracedVariablesExpandFromTheFileThenTheEnvironment() throws {
        let text = "A=1\nB=${A}-${HOME}-${NOPE}\nC=\"${B}!\"\nD='${A}'\n"
        #expect(try parse(text, environment: ["HOME": "/home/me"]) == ["A": "1", "B": "1-/home/me-", "C": "1-/home/me-!", "D": "${A}"])
    }

    /// Quotes, backslashes and `$` are read as scalars: a combining mark
    /// after one (U+0301, U+08CB) does not hide it (found by FuzzDotEnv).
    @Test func aCombiningMarkAfterAQuoteOrEscapeDoesNotHideIt() throws {
        let text = "A=\"q\\\"\u{8CB}o\"\nB='x'\u{301}\nC=\"\\$\u{301}{A}\"\nD=v #\u{301} note\n"
        #expect(try parse(text) == ["A": "q\"\u{8CB}o", "B": "x", "C": "$\u{301}{A}", "D": "v"])
    }

    @Test func laterAssignmentsWin() throws {
        #expect(try parse("A=1\nA=2\n") == ["A": "2"])
    }

    @Test func mistakesNameTheFileAndLine() {
        for (text, message) in [
            ("A=1\nnothing here\n", "test.env:2: expected KEY=VALUE"),
            ("1A=x\n", "test.env:1: bad variable name '1A'"),
            ("A='open\n", "test.env:1: unterminated ' quote"),
            ("A=1\nB=\"open\nstill open\n", "test.env:2: unterminated \" quote"),
            ("A=\"x\" y\n", "test.env:1: unexpected text after the closing quote"),
        ] {
            #expect(throws: RWatchError.self) { try parse(text) }
            do {
                _ = try parse(text)
            } catch {
                #expect("\(error)" == message)
            }
        }
    }

    /// Found by Fuzz/Harnesses FuzzDotEnv: a NUL reached a value, and execve
    /// would have cut the variable there without a word.
    @Test func aNulByteIsAMistakeNotPartOfAValue() {
        for (text, message) in [
            ("A=1\nB=x\0y\n", "test.env:2: NUL byte (a variable cannot hold one)"),
            ("A='\0'\r\n", "test.env:1: NUL byte (a variable cannot hold one)"),
            ("A=\"one\ntwo\0\"\n", "test.env:2: NUL byte (a variable cannot hold one)"),
        ] {
            do {
                let variables = try parse(text)
                Issue.record("\(text.debugDescription) gave \(variables)")
            } catch {
                #expect("\(error)" == message)
            }
        }
    }
}
