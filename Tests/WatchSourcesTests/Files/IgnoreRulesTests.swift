import Testing
@testable import WatchSources

@Suite struct IgnoreRulesTests {
    /// (files: directory → contents, path, isDirectory, ignored)
    static let cases: [([String: String], String, Bool, Bool)] = [
        (["": "*.log"], "a.log", false, true),
        (["": "*.log"], "deep/down/a.log", false, true),
        (["": "*.log\n!keep.log"], "keep.log", false, false),             // negation
        (["": "*.log\n!keep.log"], "other.log", false, true),
        (["": "build/"], "build", true, true),                              // directory-only
        (["": "build/"], "build", false, false),
        (["": "build/"], "src/build", true, true),
        (["": "/out"], "out", true, true),                                  // anchored
        (["": "/out"], "src/out", true, false),
        (["": "doc/*.txt"], "doc/a.txt", false, true),                      // a middle slash anchors
        (["": "doc/*.txt"], "x/doc/a.txt", false, false),
        (["": "**/tmp"], "a/b/tmp", true, true),
        (["": "# comment\n\n  \n*.o  "], "main.o", false, true),           // comments, blanks, trailing spaces
        (["": "\\#hash"], "#hash", false, true),
        (["": "*.gen"], "x.gen", false, true),
        (["sub": "*.gen"], "x.gen", false, false),                          // nested file applies below it only
        (["sub": "*.gen"], "sub/x.gen", false, true),
        (["sub": "/local"], "sub/local", false, true),
        (["sub": "/local"], "sub/deeper/local", false, false),
        (["": "*.gen", "sub": "!keep.gen"], "sub/keep.gen", false, false),   // deeper file overrides
        (["": "*.gen", "sub": "!keep.gen"], "sub/other.gen", false, true),
    ]

    @Test(arguments: cases) func followsGitignoreRules(_ example: ([String: String], String, Bool, Bool)) {
        var rules = IgnoreRules()
        for (directory, contents) in example.0 { rules.set(contents, in: directory) }
        #expect(rules.isIgnored(example.1, isDirectory: example.2) == example.3)
    }

    @Test(arguments: [
        (".git", true, true), (".build", true, true), ("src/.hg", true, true), ("main.swift.swp", false, true),
        ("notes.txt~", false, true), (".#main.c", false, true), ("4913", false, true), ("a___jb_tmp___", false, true),
        ("sedAb12Cd", false, true), ("main.swift", false, false), ("gitignore", false, false),
    ])
    func defaultIgnoreCoversVCSAndEditorFiles(_ example: (String, Bool, Bool)) {
        let filter = PathFilter(WatchOptions())
        #expect(filter.reports(example.0, isDirectory: example.1) == !example.2)
        #expect(PathFilter(WatchOptions(useDefaultIgnore: false)).reports(example.0, isDirectory: example.1))
    }

    @Test func extensionsAndIncludesNarrowWhatIsReported() {
        let filter = PathFilter(WatchOptions(include: ["Sources/**"], exclude: ["Sources/Generated/**"], extensions: ["swift", ".md"]))
        #expect(filter.reports("Sources/a.swift", isDirectory: false))
        #expect(filter.reports("Sources/x/README.md", isDirectory: false))
        #expect(!filter.reports("Sources/a.c", isDirectory: false))
        #expect(!filter.reports("Tests/a.swift", isDirectory: false))
        #expect(!filter.reports("Sources/Generated/g.swift", isDirectory: false))
        #expect(!filter.watchesDirectory("Sources/Generated"))
        #expect(filter.watchesDirectory("Tests"))
    }
}
