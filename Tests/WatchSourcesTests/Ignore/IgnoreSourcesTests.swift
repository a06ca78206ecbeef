import SystemPackage
import Testing
@testable import WatchSources
import TestSupport

/// Which rule files a filter reads, source by source, as watchexec's
/// `--no-vcs-ignore`, `--no-project-ignore` and `--no-global-ignore` split
/// them: git's files are VCS rules, `.ignore` is not; the tree's and the
/// repository's files are the project's, git's global excludes file is not.
@Suite struct IgnoreSourcesTests {
    /// The names (one per kind of rule file) that a filter with `options`
    /// ignores in a repository with one rule of each kind, watching `src`.
    private func ignored(_ options: WatchOptions) -> Set<String> {
        let repo = TestRepository(globalConfig: "[core]\n\texcludesFile = ~/global-ignore\n")
        defer { repo.remove() }
        TemporaryDirectory.writeFile(repo.home + "/global-ignore", "*.global\n")
        repo.write(".git/info/exclude", "*.exclude\n")
        repo.write(".gitignore", "*.above-git\n")
        repo.write(".ignore", "*.above-dot\n")
        repo.write("src/.gitignore", "*.git\n")
        repo.write("src/.ignore", "*.dot\n")
        let root = FilePath(repo.top + "/src")
        var filter = PathFilter(root: root, options: repo.options(options))
        filter.loadDirectory(FilePath(), at: root)
        let names = ["a.global", "a.exclude", "a.above-git", "a.above-dot", "a.git", "a.dot", "a.kept"]
        return Set(names.filter { filter.whyIgnored(FilePath($0), isDirectory: false) != nil })
    }

    @Test func everySourceIsReadByDefault() {
        #expect(ignored(WatchOptions()) == ["a.global", "a.exclude", "a.above-git", "a.above-dot", "a.git", "a.dot"])
    }

    @Test func withoutVCSRulesOnlyDotIgnoreFilesApply() {
        #expect(ignored(WatchOptions(useVCSIgnore: false)) == ["a.above-dot", "a.dot"])
    }

    @Test func withoutProjectRulesOnlyTheGlobalExcludesFileApplies() {
        #expect(ignored(WatchOptions(useProjectIgnore: false)) == ["a.global"])
    }

    @Test func withoutGlobalRulesEveryProjectFileApplies() {
        #expect(ignored(WatchOptions(useGlobalIgnore: false)) == ["a.exclude", "a.above-git", "a.above-dot", "a.git", "a.dot"])
    }

    @Test func withNoSourceNothingIsRead() {
        let options = WatchOptions(useVCSIgnore: false, useProjectIgnore: false, useGlobalIgnore: false)
        #expect(ignored(options) == [])
        let filter = PathFilter(root: "/", options: options)
        #expect(filter.followedDirectories.isEmpty)
    }
}
