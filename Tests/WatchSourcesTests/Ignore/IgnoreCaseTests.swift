import SystemPackage
import Testing
@testable import WatchSources
import TestSupport

/// `core.ignorecase`, which git sets by itself in a repository on a
/// case-insensitive file system (vfat, exFAT, WSL's drvfs): with it, git
/// matches ignore patterns folding ASCII letters, and rwatch must keep what
/// git keeps. Every verdict is compared with `git check-ignore --no-index`.
@Suite struct IgnoreCaseTests {
    /// Patterns that meet names of another case in every way git matches
    /// them: a literal name, a `*.EXT` suffix, a literal directory prefix,
    /// `[[:upper:]]`/`[[:lower:]]`, ranges, and git's quirks (a `[A]` or
    /// `\X` compares the folded name with the letter as written).
    static let gitignore = """
        Upper.txt
        *.LOG
        !KEEP.log
        [[:upper:]]cls
        [[:lower:]]low
        [A-C]rng
        [a-c]low
        [A]br
        [a]cr
        \\Xesc
        x\\yz
        Dir/Sub*
        Build/

        """

    static let names = ["Upper.txt", "upper.txt", "UPPER.TXT", "f.log", "F.LOG", "keep.log", "acls", "Acls", "1cls", "Alow", "alow",
                        "Brng", "brng", "Dlow", "blow", "BLOW", "Abr", "abr", "Acr", "acr", "Xesc", "xesc", "xyz", "XYZ",
                        "dir/subx", "DIR/SUBX", "dir/other", "build/out", "BUILD/out", "sub/upper.txt", "a.excl", "A.EXCL",
                        "a.glob", "A.GLOB", "kept.txt", "Kept.TXT"]

    /// A repository with the patterns above in its `.gitignore`,
    /// `info/exclude` and global excludes file, `core.ignorecase` set (in
    /// `configFile`, relative to the top, or the global file) to `value`.
    private func repository(ignoreCase value: String?, global: Bool = false) -> TestRepository {
        let repo = TestRepository(globalConfig: "[core]\n\texcludesFile = ~/global-ignore\n" + (global && value != nil ? "\tignorecase = \(value!)\n" : ""))
        if let value, !global { repo.git(["config", "core.ignorecase", value]) }
        TemporaryDirectory.writeFile(repo.home + "/global-ignore", "*.GLOB\n")
        repo.write(".git/info/exclude", "*.Excl\n")
        repo.write(".gitignore", Self.gitignore)
        for name in Self.names { repo.write(name, "") }
        return repo
    }

    /// `name` → is a directory, for every name and the directories holding them.
    private var paths: [String: Bool] {
        var paths: [String: Bool] = [:]
        for name in Self.names {
            paths[name] = false
            var directory = name
            while let slash = directory.lastIndex(of: "/") {
                directory = String(directory[..<slash])
                paths[directory] = true
            }
        }
        return paths
    }

    /// The paths where rwatch, watching the top, disagrees with git.
    private func disagreements(_ repo: TestRepository) -> [String] {
        let root = FilePath(repo.top)
        var filter = PathFilter(root: root, options: repo.options(WatchOptions(useDefaultIgnore: false)))
        filter.loadDirectory(FilePath(), at: root)
        for (path, isDirectory) in paths where isDirectory { filter.loadDirectory(FilePath(path), at: root.pushing(FilePath(path))) }
        let git = repo.checkIgnore(paths.keys.sorted())
        var found: [String] = []
        for (path, isDirectory) in paths.sorted(by: { $0.key < $1.key }) {
            let gitIgnores = (git[path] ?? nil)?.ignored ?? false
            let ours = filter.whyIgnored(FilePath(path), isDirectory: isDirectory)
            if gitIgnores != (ours != nil) {
                found.append("\(path): git \(gitIgnores ? "ignores" : "keeps"), rwatch \(ours.map { "ignores (\($0))" } ?? "keeps")")
            }
        }
        return found
    }

    /// What git ignores among `names`, so that a test shows it checks something.
    private func gitIgnored(_ repo: TestRepository, _ names: [String]) -> Set<String> {
        let verdicts = repo.checkIgnore(names)
        return Set(names.filter { (verdicts[$0] ?? nil)?.ignored == true })
    }

    @Test func withIgnoreCaseTrueEveryPatternFoldsAsInGit() {
        let repo = repository(ignoreCase: "true")
        defer { repo.remove() }
        // The cases the bug report gave, as git decides them.
        #expect(gitIgnored(repo, ["upper.txt", "UPPER.TXT", "f.log", "acls", "a.excl", "a.glob"])
            == ["upper.txt", "UPPER.TXT", "f.log", "acls", "a.excl", "a.glob"])
        #expect(disagreements(repo) == [])
    }

    @Test func withIgnoreCaseFalseNothingFolds() {
        let repo = repository(ignoreCase: "false")
        defer { repo.remove() }
        #expect(gitIgnored(repo, ["upper.txt", "f.log", "acls", "Upper.txt"]) == ["Upper.txt"])
        #expect(disagreements(repo) == [])
    }

    @Test func theGlobalConfigurationSetsItAndTheRepositoryOverrides() {
        let global = repository(ignoreCase: "yes", global: true)
        defer { global.remove() }
        #expect(gitIgnored(global, ["upper.txt"]) == ["upper.txt"])
        #expect(disagreements(global) == [])
        // The repository's own `false` wins over the global `true`.
        global.git(["config", "core.ignoreCase", "0"])
        #expect(gitIgnored(global, ["upper.txt"]) == [])
        #expect(disagreements(global) == [])
    }

    @Test func anIncludedFileSetsIt() {
        let repo = repository(ignoreCase: nil)
        defer { repo.remove() }
        TemporaryDirectory.writeFile(repo.home + "/case.inc", "[core]\n\tignorecase\n")
        repo.git(["config", "include.path", repo.home + "/case.inc"])
        #expect(gitIgnored(repo, ["upper.txt"]) == ["upper.txt"])
        #expect(disagreements(repo) == [])
    }

    @Test(arguments: 0..<12) func generatedTreesAgreeWithGitIgnoringCase(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &* 104_729 &+ 3)
        let repo = TestRepository()
        defer { repo.remove() }
        repo.git(["config", "core.ignorecase", "true"])
        let tree = GeneratedTree(&random, upperCase: true)
        tree.write(into: repo)
        let root = FilePath(repo.top)
        var filter = PathFilter(root: root, options: repo.options(WatchOptions(useDefaultIgnore: false)))
        filter.loadDirectory(FilePath(), at: root)
        for directory in tree.paths.filter(\.value).keys.sorted(by: { $0.count < $1.count }) {
            filter.loadDirectory(FilePath(directory), at: root.pushing(FilePath(directory)))
        }
        let git = repo.checkIgnore(tree.paths.keys.sorted())
        var found: [String] = []
        for (path, isDirectory) in tree.paths.sorted(by: { $0.key < $1.key }) {
            let gitIgnores = (git[path] ?? nil)?.ignored ?? false
            if gitIgnores != (filter.whyIgnored(FilePath(path), isDirectory: isDirectory) != nil) {
                found.append("\(path): git \(gitIgnores ? "ignores" : "keeps")")
            }
        }
        #expect(found == [], "seed \(seed)\n\(tree.description)")
    }
}
