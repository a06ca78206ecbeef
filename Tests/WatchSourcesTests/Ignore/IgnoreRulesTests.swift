import SystemPackage
import Testing
@testable import WatchSources

@Suite struct IgnoreRulesTests {
    private static func rules(_ files: [String: String], exclude: String? = nil) -> IgnoreRules {
        var rules = IgnoreRules()
        for (directory, contents) in files {
            rules.setFiles([IgnoreFile.gitignore(Array(contents.utf8), path: FilePath("/r/\(directory)/.gitignore"))], in: FilePath(directory))
        }
        if let exclude { rules.excludeFiles = [IgnoreFile.gitignore(Array(exclude.utf8), path: FilePath("/r/.git/info/exclude"))] }
        return rules
    }

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
        (["": "\\!bang"], "!bang", false, true),
        (["": "trail\\ "], "trail ", false, true),                          // an escaped trailing space stays
        (["": "*.gen"], "x.gen", false, true),
        (["sub": "*.gen"], "x.gen", false, false),                          // nested file applies below it only
        (["sub": "*.gen"], "sub/x.gen", false, true),
        (["sub": "/local"], "sub/local", false, true),
        (["sub": "/local"], "sub/deeper/local", false, false),
        (["": "*.gen", "sub": "!keep.gen"], "sub/keep.gen", false, false),   // deeper file overrides
        (["": "*.gen", "sub": "!keep.gen"], "sub/other.gen", false, true),
        (["": "build/\n!build/keep.txt"], "build/keep.txt", false, true),   // no re-include inside an ignored directory
        (["": "build/*\n!build/keep.txt"], "build/keep.txt", false, false), // but inside a directory whose contents are
        (["": "a/**"], "a", true, false),                                   // a/** is what is inside a
        (["": "a/**"], "a/b/c", false, true),
        (["": "a/**/z"], "a/z", false, true),
        (["": "[abc]?.md"], "bx.md", false, true),
        (["": "{a,b}.md"], "a.md", false, false),                           // no braces in gitignore
        (["": "{a,b}.md"], "{a,b}.md", false, true),
        (["": "bad[x"], "bad[x", false, false),                             // malformed: matches nothing
    ]

    @Test(arguments: cases) func followsGitignoreRules(_ example: ([String: String], String, Bool, Bool)) {
        let rules = Self.rules(example.0)
        #expect((rules.ignoring(FilePath(example.1), isDirectory: example.2) != nil) == example.3)
    }

    @Test func aGitignoreWinsOverInfoExcludeWhichIsOnlyConsultedWithoutAMatch() {
        let rules = Self.rules(["": "!keep.log\n"], exclude: "*.log\n")
        #expect(rules.ignoring("keep.log", isDirectory: false) == nil)
        #expect(rules.ignoring("other.log", isDirectory: false) != nil)
        #expect(rules.ignoring("other.log", isDirectory: false)?.decision.file.path == "/r/.git/info/exclude")
    }

    @Test func theDecidingLineIsNamedWithItsFileAndNumber() throws {
        let rules = Self.rules(["": "# build output\n*.o\nbuild/\n"])
        let found = try #require(rules.ignoring("build/x.c", isDirectory: false))
        #expect(found.decision.pattern.line == 3 && found.decision.pattern.text == "build/" && found.directory == "build")
    }

    @Test(arguments: [
        (".git", true, true), (".build", true, true), ("src/.hg", true, true), ("main.swift.swp", false, true),
        (".main.swift.swo", false, true), ("notes.txt~", false, true), (".#main.c", false, true), ("#main.c#", false, true),
        ("4913", false, true), ("a___jb_tmp___", false, true), ("a___jb_old___", false, true), ("x.kate-swp", false, true),
        ("a.py.vsctmp", false, true), ("sedAb12Cd", false, true), ("__pycache__", true, true), ("m.pyc", false, true),
        ("m.pyo", false, true), (".DS_Store", false, true), ("main.swift", false, false), ("gitignore", false, false),
        ("__pycache__", false, false), ("m.py", false, false), ("a.swf", false, false),
    ])
    func defaultIgnoreCoversVCSAndEditorFiles(_ example: (String, Bool, Bool)) {
        let filter = PathFilter(root: "/nowhere", options: WatchOptions())
        #expect(filter.reports(FilePath(example.0), isDirectory: example.1) == !example.2)
        #expect(PathFilter(root: "/nowhere", options: WatchOptions(useDefaultIgnore: false)).reports(FilePath(example.0), isDirectory: example.1))
    }

    @Test func extensionsAndIncludesNarrowWhatIsReported() {
        let filter = PathFilter(root: "/nowhere", options: WatchOptions(include: ["Sources/**"], exclude: ["Sources/Generated/**"], extensions: ["swift", ".md"]))
        #expect(filter.reports("Sources/a.swift", isDirectory: false))
        #expect(filter.reports("Sources/x/README.md", isDirectory: false))
        #expect(!filter.reports("Sources/a.c", isDirectory: false))
        #expect(!filter.reports("Tests/a.swift", isDirectory: false))
        #expect(!filter.reports("Sources/Generated/g.swift", isDirectory: false))
        #expect(!filter.watchesDirectory("Sources/Generated"))
        #expect(filter.watchesDirectory("Tests"))
    }

    @Test func aNonRecursiveFilterReportsOnlyTheRootsOwnEntries() {
        let filter = PathFilter(root: "/nowhere", options: WatchOptions(recursive: false))
        #expect(filter.reports("a.txt", isDirectory: false))
        #expect(filter.reports("sub", isDirectory: true))
        #expect(!filter.reports("sub/a.txt", isDirectory: false))
        #expect(!filter.watchesDirectory("sub"))
    }

    @Test func whyIgnoredNamesDefaultIgnoresAndExcludeGlobs() {
        let filter = PathFilter(root: "/r", options: WatchOptions(exclude: ["*.tmp"]))
        #expect(filter.whyIgnored("a/__pycache__/m.pyc", isDirectory: false)?.description == "default ignore __pycache__/ (directory /r/a/__pycache__)")
        #expect(filter.whyIgnored("x.tmp", isDirectory: false)?.description == "exclude glob *.tmp")
        #expect(filter.whyIgnored("x.txt", isDirectory: false) == nil)
    }

    /// The man page's DEFAULT IGNORES section names every default pattern
    /// (its roff escapes removed), so the list a user reads is the one applied.
    @Test func theManPageListsEveryDefaultIgnore() throws {
        let manPage = FilePath(#filePath).removingLastComponent().removingLastComponent().removingLastComponent()
            .removingLastComponent().appending("man/rwatch.1")
        guard case .contents(let bytes) = FileSystem.readFile(manPage) else {
            Issue.record("cannot read \(manPage)")
            return
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let start = try #require(text.firstRange(of: ".SH DEFAULT IGNORES"))
        let section = text[start.upperBound...]
        let end = section.firstRange(of: "\n.SH ")?.lowerBound ?? section.endIndex
        let listed = String(section[..<end]).replacing("\\-", with: "-")
        for pattern in DefaultIgnores.patterns {
            #expect(listed.contains(pattern), "man page DEFAULT IGNORES lacks \(pattern)")
        }
    }
}
