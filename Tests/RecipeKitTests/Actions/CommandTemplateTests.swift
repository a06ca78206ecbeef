@testable import RecipeKit
import Testing

/// `{}` and `{+}` made into commands, without processes.
@Suite struct CommandTemplateTests {
    private func words(_ texts: String...) -> [CommandWord] { texts.map { CommandWord($0) } }
    private func texts(_ invocation: CommandTemplate.Invocation) -> [String] { invocation.words.map(\.text) }

    @Test func eachPathGivesOneRunPerPathWithThePathAsTheWordAndInPlace() throws {
        let template = try CommandTemplate(words("cc", "-c", "{}", "--out={}.o"), base: "/src")
        let runs = template.invocations(for: ["/src/a.c", "/src/lib/b.c", "/elsewhere/c.c"])
        #expect(runs.map(texts) == [
            ["cc", "-c", "a.c", "--out=a.c.o"],
            ["cc", "-c", "lib/b.c", "--out=lib/b.c.o"],
            ["cc", "-c", "/elsewhere/c.c", "--out=/elsewhere/c.c.o"],
        ])
        #expect(runs.map(\.paths) == [["/src/a.c"], ["/src/lib/b.c"], ["/elsewhere/c.c"]])
    }

    @Test func aCommandWithoutPlaceholdersRunsOnceAsItIs() throws {
        let template = try CommandTemplate(words("make", "all"))
        #expect(!template.isPerPath)
        #expect(template.invocations(for: ["/a", "/b"]).map(texts) == [["make", "all"]])
        #expect(template.invocations(for: []).map(texts) == [["make", "all"]])
    }

    @Test func aPlaceholderWithoutPathGivesNoRun() throws {
        #expect(try CommandTemplate(words("cat", "{}")).invocations(for: []).isEmpty)
        #expect(try CommandTemplate(words("cat", "{+}")).invocations(for: []).isEmpty)
    }

    @Test func hostileNamesReachTheWordByteForByte() throws {
        let names: [[UInt8]] = [
            Array("new\nline".utf8), Array("-rf".utf8), [0x66, 0xFF, 0xFE, 0x2E, 0x63],
            Array(repeating: UInt8(ascii: "n"), count: 255), Array("$(id) `id` 'q' \"d\"".utf8),
        ]
        let template = try CommandTemplate(words("cat", "{}"), base: "/w")
        let runs = template.invocations(for: names.map { FilePath(bytes: Array("/w/".utf8) + $0) })
        #expect(runs.map { $0.words[1].bytes } == names)
    }

    @Test func dashSafeAddsDotSlashOnlyToARelativeNameBeginningWithADash() throws {
        let template = try CommandTemplate(words("rm", "{}"), base: "/w", dashSafe: true)
        let runs = template.invocations(for: ["/w/-rf", "/w/a/-b", "/-x"])
        #expect(runs.map { $0.words[1].text } == ["./-rf", "a/-b", "/-x"])
    }

    @Test func allPathsRepeatsTheWordOncePerPath() throws {
        let template = try CommandTemplate(words("prettier", "--write", "{+}", "--file={+}"), base: "/w")
        let runs = template.invocations(for: ["/w/a.js", "/w/b.js"])
        #expect(runs.map(texts) == [["prettier", "--write", "a.js", "b.js", "--file=a.js", "--file=b.js"]])
    }

    @Test func allPathsSplitsWhereTheWordsWouldPassTheArgumentBudget() throws {
        var template = try CommandTemplate(words("echo", "{+}"), base: "/w")
        let paths = (0..<100).map { FilePath("/w/" + String(repeating: "x", count: 90) + "\($0)") }
        let perPath = ArgumentLimit.cost(of: [Array(template.shown(paths[10]).bytes)])
        template.argumentBudget = ArgumentLimit.cost(of: [Array("echo".utf8)]) + perPath * 30
        let runs = template.invocations(for: paths)
        #expect(runs.count == 4)
        #expect(runs.flatMap(\.paths) == paths)
        #expect(runs.allSatisfy { ArgumentLimit.cost(of: $0.words.map(\.bytes)) <= template.argumentBudget })
    }

    @Test func withAShellThePathsArePositionalParametersNeverPasted() throws {
        let template = try CommandTemplate(words("cc -c {} -o \"{}.o\" 'x{}y'"), shell: "sh", base: "/w")
        let runs = template.invocations(for: ["/w/$(id).c"])
        #expect(runs.map(texts) == [[#"cc -c "${1}" -o "${1}.o" 'x'"${1}"'y'"#]])
        #expect(runs[0].shellParameters.map(\.text) == ["$(id).c"])
        let all = try CommandTemplate(words("wc -l {+}"), shell: "sh", base: "/w").invocations(for: ["/w/a", "/w/b"])
        #expect(all.map(texts) == [[#"wc -l "$@""#]])
        #expect(all[0].shellParameters.map(\.text) == ["a", "b"])
    }

    @Test func shellQuotesAndEscapesAroundAPlaceholderAreRespected() {
        func substituted(_ script: String) -> String {
            String(decoding: ShellPlaceholders.substitute(Array(script.utf8)), as: UTF8.self)
        }
        #expect(substituted(#"echo \"{} "a\"{}""#) == #"echo \""${1}" "a\"${1}""#)
        #expect(substituted("echo '{}' \"{+}\"") == #"echo ''"${1}"'' "$@""#)
    }

    @Test func bothPlaceholdersOrAPlaceholderAsTheProgramAreRefused() {
        #expect(throws: CommandTemplate.Problem.both) { try CommandTemplate(words("cp", "{}", "{+}")) }
        #expect(throws: CommandTemplate.Problem.placeholderAsProgram("{}")) { try CommandTemplate(words("{}", "-v")) }
        #expect(throws: CommandTemplate.Problem.placeholderAsProgram("{+}")) { try CommandTemplate(words("{+} x"), shell: "sh") }
        #expect(throws: Never.self) { try CommandTemplate(words("./{}")) }
    }
}
