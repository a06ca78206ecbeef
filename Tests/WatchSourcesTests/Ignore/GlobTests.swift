import Testing
@testable import WatchSources

@Suite struct GlobTests {
    static let cases: [(pattern: String, path: String, matches: Bool)] = [
        ("*.swift", "main.swift", true),
        ("*.swift", "Sources/App/main.swift", true),          // no slash: any depth
        ("*.swift", "main.swiftx", false),
        ("Sources/**/*.swift", "Sources/a.swift", true),
        ("Sources/**/*.swift", "Sources/x/y/b.swift", true),
        ("Sources/**/*.swift", "Tests/a.swift", false),
        ("Sources/*.swift", "Sources/x/a.swift", false),      // * stays in one component
        ("**/build", "build", true),
        ("**/build", "a/b/build", true),
        ("build/**", "build/x/y", true),
        ("/top.txt", "top.txt", true),
        ("/top.txt", "sub/top.txt", false),                   // anchored
        ("src/*.c", "src/main.c", true),
        ("?.md", "a.md", true),
        ("?.md", "ab.md", false),
        ("[abc].txt", "b.txt", true),
        ("[!abc].txt", "b.txt", false),
        ("[a-c]x", "cx", true),
        ("[a-c]x", "dx", false),
        ("\\*.txt", "*.txt", true),
        ("\\*.txt", "a.txt", false),
        ("a*b*c", "a-b-c", true),
        ("a*b*c", "a-b-", false),
        ("*", "anything/at/all", true),
        ("docs/**", "docs", true),
        ("x/**/y", "x/y", true),
        ("x/**/y", "x/1/2/3/y", true),
        ("na me*.txt", "na me 2.txt", true),
        ("$(rm)*", "$(rm) -rf", true),
        ("*.txt", "sub/deep.txt", true),                     // no slash: the base name, at any depth
        ("**/*.{py,txt}", "a/b.py", true),                    // {a,b}
        ("**/*.{py,txt}", "b.txt", true),
        ("**/*.{py,txt}", "b.md", false),
        ("{src,test}/**/*.c", "test/x/y.c", true),            // alternatives across segments
        ("{src,test}/**/*.c", "lib/y.c", false),
        ("*.{c,{h,hpp}}", "a.hpp", true),                     // nested
        ("{a}", "{a}", true),                                 // no comma: literal braces
        ("\\{a,b}", "{a,b}", true),                          // an escaped { opens no group
        ("\\{a,b\\}", "{a,b}", true),
        ("?.md", "é.md", true),                               // ? is one character, not one byte
        ("??.md", "é.md", false),
        ("?", "🦀", true),
        ("[é]x", "éx", true),
        ("[a-z]", "é", false),
        ("[!a]", "é", true),
        ("[α-ω].txt", "λ.txt", true),
        ("[[:digit:]]*", "3rd", true),
        ("[[:upper:]]*", "lower", false),
        ("[]]", "]", true),
        ("a**b", "axxb", true),                               // ** inside a segment is *
        ("a**b", "ax/xb", false),
        ("src/**", "src/x/y", true),
    ]

    @Test(arguments: cases) func matchesLikeAShell(_ example: (pattern: String, path: String, matches: Bool)) throws {
        #expect(try Glob(example.pattern).matches(example.path) == example.matches)
    }

    @Test(arguments: [("[abc", "unclosed ["), ("abc\\", "ends with a lone backslash"), ("", "empty pattern"), ("[z-a]", "reversed range in [...]"),
                      ("{a,b", "unclosed {"), ("[[:alfa:]]", "unknown class [:alfa:]")])
    func rejectsMalformedPatternsWithOneClearLine(_ example: (pattern: String, problem: String)) {
        #expect(throws: FileWatchError(.badGlob(pattern: example.pattern, problem: example.problem))) {
            try Glob(example.pattern)
        }
        let error = FileWatchError(.badGlob(pattern: example.pattern, problem: example.problem))
        #expect(!error.description.contains("\n"))
    }

    /// Many `**` (a hostile ignore file, found by the FuzzGitignore
    /// harness) match in polynomial time: before, every way of splitting
    /// the path between them was tried, and this did not finish.
    @Test(.timeLimit(.minutes(1))) func manyGlobstarsMatchInPolynomialTime() throws {
        let pattern = "a/" + String(repeating: "**/", count: 24) + "z"
        let path = "a/" + String(repeating: "b/", count: 40) + "y"
        #expect(try !Glob(pattern).matches(path))
        #expect(try Glob(pattern).matches("a/" + String(repeating: "b/", count: 40) + "z"))
    }

    @Test func aTrailingSlashMatchesDirectoriesOnly() throws {
        let glob = try Glob("build/")
        #expect(glob.matches("build", isDirectory: true))
        #expect(glob.matches("src/build", isDirectory: true))
        #expect(!glob.matches("build", isDirectory: false))
    }

    @Test func gitignoreSyntaxComparesBytesAndHasNoBraces() throws {
        #expect(try !Glob("?.md", syntax: .gitignore).matches("é.md"))
        #expect(try Glob("??.md", syntax: .gitignore).matches("é.md"))
        #expect(try Glob("{a,b}", syntax: .gitignore).matches("{a,b}"))
        #expect(try !Glob("a/**", syntax: .gitignore).matches("a"))
        #expect(try Glob("a/**", syntax: .gitignore).matches("a/b"))
    }

    @Test func tooManyAlternativesAreRefused() {
        let pattern = String(repeating: "{a,b,c,d}", count: 6)
        #expect(throws: FileWatchError.self) { try Glob(pattern) }
    }

    @Test func optionsValidationNamesTheBadGlob() {
        #expect(throws: FileWatchError(.badGlob(pattern: "src/[x", problem: "unclosed ["))) {
            try WatchOptions(include: ["*.swift"], exclude: ["src/[x"]).validated()
        }
        #expect((try? WatchOptions.matching("**/*.swift").validated()) != nil)
    }

    @Test func aBadGlobArrivesAsTheSignalsError() {
        let (recorder, subscription) = record(["/tmp"], options: WatchOptions(include: ["[oops"]))
        defer { subscription.dispose() }
        #expect(recorder.failure.withLock { $0 }?.description == "bad glob \"[oops\": unclosed [")
    }
}
