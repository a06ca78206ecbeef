@testable import RecipeKit
import Testing

/// Which words of a command are code its program parses, so that `{}`
/// there is refused, and which are data, where `{}` stays as it is.
@Suite struct InlineCodeTests {
    /// The word of `command` that is code and holds a placeholder, if any.
    private func code(_ command: String...) -> String? {
        let words = command.map { Array($0.utf8) }
        return InlineCode.find(in: words).map { String(decoding: words[$0.word], as: UTF8.self) }
    }

    @Test func aShellsDashCScriptIsCodeHoweverTheShellIsReached() {
        let script = "echo {}"
        #expect(code("sh", "-c", script) == script)
        #expect(code("/bin/bash", "-ec", script) == script)
        #expect(code("bash", "-l", "-o", "pipefail", "-c", script) == script)
        #expect(code("bash", "--norc", "-c", script, "name", "x") == script)
        #expect(code("dash", "-c", "cat {+}") == "cat {+}")
        #expect(code("zsh", "-c", script) == script)
        #expect(code("ksh", "-xc", script) == script)
        #expect(code("busybox", "sh", "-c", script) == script)
        #expect(code("env", "-i", "A=1", "--", "sh", "-c", script) == script)
        #expect(code("env", "-u", "HOME", "nice", "-n", "5", "timeout", "-s", "KILL", "10s", "sh", "-c", script) == script)
        #expect(code("exec", "-a", "name", "sh", "-c", script) == script)
        #expect(code("nohup", "stdbuf", "-oL", "setsid", "sh", "-c", script) == script)
        #expect(code("sudo", "-u", "root", "sh", "-c", script) == script)
        #expect(code("fish", "-c", script) == script)
        #expect(code("fish", "--command=" + script) == "--command=" + script)
        #expect(code("env", "-S", "sh -c 'cat {}'") == "sh -c 'cat {}'")
    }

    @Test func interpretersInlineProgramsAreCode() {
        #expect(code("python3", "-c", "print('{}')") == "print('{}')")
        #expect(code("python3.12", "-B", "-c", "open('{}')") == "open('{}')")
        #expect(code("perl", "-ne", "print if /{}/", "f") == "print if /{}/")
        #expect(code("perl", "-e{}") == "-e{}")
        #expect(code("ruby", "-e", "puts '{}'") == "puts '{}'")
        #expect(code("node", "--eval", "x('{}')") == "x('{}')")
        #expect(code("node", "--eval=x('{}')") == "--eval=x('{}')")
        #expect(code("awk", "{ print \"{}\" }", "data") == "{ print \"{}\" }")
        #expect(code("awk", "-F", ":", "/{}/", "data") == "/{}/")
        #expect(code("sed", "-n", "s/a/{}/p", "f") == "s/a/{}/p")
        #expect(code("sed", "-i", "-e", "s/a/{}/", "f") == "s/a/{}/")
        #expect(code("ssh", "-p", "22", "host", "cat", "{}") == "{}")
        #expect(code("watch", "-n", "1", "ls {}") == "ls {}")
        #expect(code("su", "user", "-c", "cat {}") == "cat {}")
    }

    @Test func argumentsAfterTheCodeAndPlainCommandsAreData() {
        #expect(code("sh", "-c", #"echo "$1""#, "sh", "{}") == nil)
        #expect(code("sh", "-c", #"printf %s "$@""#, "sh", "--out={+}.o") == nil)
        #expect(code("sh", "{}") == nil)
        #expect(code("bash", "script.sh", "-c", "{}") == nil)
        #expect(code("cc", "-c", "{}", "--out={}.o") == nil)
        #expect(code("env", "A={}", "make") == nil)
        #expect(code("python3", "script.py", "-c", "{}") == nil)
        #expect(code("python3", "-c", "import sys; print(sys.argv[1])", "{}") == nil)
        #expect(code("perl", "-ne", "print", "{}") == nil)
        #expect(code("awk", "-f", "prog.awk", "{}") == nil)
        #expect(code("awk", "{ print }", "{}") == nil)
        #expect(code("sed", "-i", "s/a/b/", "{}") == nil)
        #expect(code("ssh", "{}") == nil)
        #expect(code("watch", "-x", "cat", "{}") == nil)
        #expect(code("timeout", "5", "cat", "{}") == nil)
        #expect(code("nice", "-n", "5") == nil)
        #expect(code("env") == nil)
    }

    @Test func theRefusalGivesTheSafeSpellingOfTheUsersOwnScript() {
        let words = ["env", "A=1", "sh", "-c", "echo start {}; cat '{}'"].map { Array($0.utf8) }
        let refusal = InlineCode.refusal(InlineCode.find(in: words)!, in: words)
        #expect(refusal == #"{} inside sh's -c script would run file names as code; give them to the script as arguments: "#
            + #"env A=1 sh -c 'echo start "${1}"; cat '\'''\''"${1}"'\'''\''' sh {} (or --shell sh 'echo start {}; cat '\''{}'\'''), "#
            + "or paste them anyway with --unsafe-paste-into-code")
        let all = ["sh", "-c", "wc -l {+}", "x"].map { Array($0.utf8) }
        #expect(InlineCode.refusal(InlineCode.find(in: all)!, in: all).contains(#"sh -c '… "$1" …' sh {+}"#))
        let python = ["python3", "-c", "print('{}')"].map { Array($0.utf8) }
        #expect(InlineCode.refusal(InlineCode.find(in: python)!, in: python).hasPrefix("{} inside code that python3 runs"))
    }

    @Test func aRefusalShowsControlCharactersEscapedOnOneLine() {
        let words = ["sh", "-c", "echo {}\n\u{1B}[31m"].map { Array($0.utf8) }
        let refusal = InlineCode.refusal(InlineCode.find(in: words)!, in: words)
        #expect(!refusal.contains("\n") && !refusal.contains("\u{1B}"))
    }

    @Test func theTemplateRefusesCodeUnlessAskedToPaste() throws {
        #expect(throws: CommandTemplate.Problem.self) { try CommandTemplate(["sh", "-c", "echo {}"]) }
        let pasted = try CommandTemplate(["sh", "-c", "echo {}"], base: "/w", pasteIntoCode: true)
        #expect(pasted.invocations(for: ["/w/a"]).map { $0.words.map(\.text) } == [["sh", "-c", "echo a"]])
        // With --shell the script's placeholders are positional parameters already.
        #expect(try CommandTemplate(["echo {}"], shell: "sh").isPerPath)
        #expect(throws: Never.self) { try CommandTemplate(["sh", "-c", "echo $1", "sh", "{}"]) }
    }

    @Test func aShellInsideAShellScriptIsFoundThroughQuotesAndOperators() throws {
        func nested(_ script: String) -> String? {
            InlineCode.find(inScript: Array(script.utf8)).map { String(decoding: $1[$0.word], as: UTF8.self) }
        }
        #expect(nested(#"make && sh -c "echo {}""#) == "echo {}")
        #expect(nested(#"A=1 bash -c 'cat {}' | wc -l"#) == "cat {}")
        #expect(nested(#"x=$(python3 -c "print(\"{}\")")"#) == #"print("{}")"#)
        #expect(nested(#"if true; then sh -c "ls {}"; fi"#) == "ls {}")
        #expect(nested(#"echo "changed: {}"; wc -l {}"#) == nil)
        #expect(nested(#"sh -c 'echo "$1"' sh {}"#) == nil)
        #expect(throws: CommandTemplate.Problem.self) { try CommandTemplate(["make && sh -c \"echo {}\""], shell: "bash") }
        #expect(try CommandTemplate(["echo {}; wc -l {}"], shell: "sh").isPerPath)
    }
}
