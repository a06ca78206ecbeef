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
    ]

    @Test(arguments: cases) func matchesLikeAShell(_ example: (pattern: String, path: String, matches: Bool)) throws {
        #expect(try Glob(example.pattern).matches(example.path) == example.matches)
    }

    @Test(arguments: [("[abc", "unclosed ["), ("abc\\", "ends with a lone backslash"), ("", "empty pattern"), ("[z-a]", "reversed range in [...]")])
    func rejectsMalformedPatternsWithOneClearLine(_ example: (pattern: String, problem: String)) {
        #expect(throws: FileWatchError(.badGlob(pattern: example.pattern, problem: example.problem))) {
            try Glob(example.pattern)
        }
        let error = FileWatchError(.badGlob(pattern: example.pattern, problem: example.problem))
        #expect(!error.description.contains("\n"))
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
