import Glibc
import SystemPackage
import Testing
@testable import Signals
@testable import WatchSources
import TestSupport

/// Ignore rules on real trees with real inotify: rules from above the
/// watched path, rule files edited while watching, rule files that are
/// not files, and the default ignores.
@Suite struct IgnoreWatchTests {
    /// Collects `FileWatcher.notices` that mention `path`.
    private final class NoticeRecorder: Sendable {
        let notices = Locked<[WatchNotice]>([])
        var snapshot: [WatchNotice] { notices.withLock { $0 } }
    }

    private func recordNotices(about path: String) -> (NoticeRecorder, any Disposable) {
        let recorder = NoticeRecorder()
        let subscription = FileWatcher.notices.subscribe(onNext: { notice in
            if notice.description.contains(path) { recorder.notices.withLock { $0.append(notice) } }
        })
        return (recorder, subscription)
    }

    @Test(arguments: Backend.allCases) func theRepositorysRootGitignoreAppliesToAWatchedSubdirectory(_ backend: Backend) {
        let repo = TestRepository()
        defer { repo.remove() }
        repo.write(".gitignore", "*.gen\nnode_modules/\n/src/local.txt\n")
        repo.makeDirectories(repo.top + "/src/node_modules/pkg")
        let src = repo.top + "/src"
        let (recorder, subscription) = record([src], options: repo.options(), backend: backend)
        defer { subscription.dispose() }
        #expect(!watching(src + "/node_modules", backend))
        Disk.write(src + "/a.gen")
        Disk.write(src + "/node_modules/pkg/x.js")
        Disk.write(src + "/local.txt")
        Disk.write(src + "/kept.txt")
        #expect(settle(recorder, in: src, backend: backend))
        #expect(Set(recorder.snapshot.map(\.path.string)) == [src + "/kept.txt", src + "/zz-marker"])
    }

    @Test func aDirectoryThatOnlyAnotherWatchHoldsReportsNothingHere() {
        let repo = TestRepository()
        defer { repo.remove() }
        let (recorder, subscription) = record([repo.top])
        defer { subscription.dispose() }
        // The VCS state watches .git, which this tree's default ignores leave out.
        let vcs = FileWatcher.vcsState(for: [repo.top]).subscribe()
        defer { vcs.dispose() }
        repo.write(".git/index.lock", "")
        repo.makeDirectories(repo.top + "/.git/rebase-merge")
        repo.write(".git/rebase-merge/done", "")
        #expect(settle(recorder, in: repo.top))
        #expect(!recorder.snapshot.contains { $0.path.string.contains("/.git/") }, "\(recorder.snapshot)")
        #expect(!watching(repo.top + "/.git/rebase-merge"))
    }

    @Test(arguments: Backend.allCases) func addingAnIgnoredDirectoryToTheGitignoreUnwatchesItAndRemovingItWatchesItAgain(_ backend: Backend) {
        let repo = TestRepository()
        defer { repo.remove() }
        repo.makeDirectories(repo.top + "/deps/inner")
        repo.write(".gitignore", "*.tmp\n")
        let (recorder, subscription) = record([repo.top], options: repo.options(), backend: backend)
        defer { subscription.dispose() }
        #expect(watching(repo.top + "/deps/inner", backend))
        Disk.append(repo.top + "/.gitignore", "deps/\n")
        #expect(eventually { !watching(repo.top + "/deps", backend) && !watching(repo.top + "/deps/inner", backend) })
        Disk.write(repo.top + "/deps/inner/ignored.js")
        #expect(settle(recorder, in: repo.top, backend: backend))
        #expect(!recorder.snapshot.contains { $0.path.string.hasPrefix(repo.top + "/deps/") })
        // Taking the line out watches the directory again, and what changes in it is reported.
        Disk.write(repo.top + "/.gitignore", "*.tmp\n")
        #expect(eventually { watching(repo.top + "/deps/inner", backend) })
        Disk.write(repo.top + "/deps/inner/seen.js")
        #expect(eventually { recorder.hasWrite(repo.top + "/deps/inner/seen.js", backend) })
        // What was already there is not reported as created: it did not change.
        #expect(!recorder.has(.created, repo.top + "/deps/inner/ignored.js"))
    }

    @Test(arguments: Backend.allCases) func aGitignoreSavedByRenameAndThenDeletedIsFollowed(_ backend: Backend) {
        let repo = TestRepository()
        defer { repo.remove() }
        repo.makeDirectories(repo.top + "/sub/build")
        let (recorder, subscription) = record([repo.top], options: repo.options(), backend: backend)
        defer { subscription.dispose() }
        // An editor's atomic save: a temporary file renamed over the .gitignore.
        Disk.write(repo.top + "/sub/.gitignore.tmp-save", "build/\n")
        Disk.rename(repo.top + "/sub/.gitignore.tmp-save", repo.top + "/sub/.gitignore")
        #expect(eventually { !watching(repo.top + "/sub/build", backend) })
        Disk.remove(repo.top + "/sub/.gitignore")
        #expect(eventually { watching(repo.top + "/sub/build", backend) })
        Disk.write(repo.top + "/sub/build/out.o")
        #expect(eventually { recorder.hasWrite(repo.top + "/sub/build/out.o", backend) })
    }

    @Test(arguments: Backend.allCases) func editingInfoExcludeReplansTheWatch(_ backend: Backend) {
        let repo = TestRepository()
        defer { repo.remove() }
        repo.makeDirectories(repo.top + "/logs")
        let src = repo.top + "/src"
        repo.makeDirectories(src + "/logs")
        let (recorder, subscription) = record([src], options: repo.options(), backend: backend)
        defer { subscription.dispose() }
        #expect(watching(src + "/logs", backend))
        repo.write(".git/info/exclude", "logs/\n")
        #expect(eventually { !watching(src + "/logs", backend) })
        Disk.write(src + "/logs/a.log")
        #expect(settle(recorder, in: src, backend: backend))
        #expect(!recorder.snapshot.contains { $0.path.string.hasPrefix(src + "/logs") })
    }

    /// The repository's own top watched: `.git` is not (a default ignore),
    /// yet its `info/exclude` is followed.
    @Test(arguments: Backend.allCases) func editingInfoExcludeReplansAWatchOfTheTop(_ backend: Backend) {
        let repo = TestRepository()
        defer { repo.remove() }
        repo.makeDirectories(repo.top + "/logs")
        let (recorder, subscription) = record([repo.top], options: repo.options(), backend: backend)
        defer { subscription.dispose() }
        #expect(watching(repo.top + "/logs", backend))
        repo.write(".git/info/exclude", "logs/\n*.tmp\n")
        #expect(eventually { !watching(repo.top + "/logs", backend) })
        Disk.write(repo.top + "/logs/a.log")
        Disk.write(repo.top + "/b.tmp")
        #expect(settle(recorder, in: repo.top, backend: backend))
        #expect(Set(recorder.snapshot.map(\.path.string)) == [repo.top + "/zz-marker"], "\(recorder.snapshot)")
    }

    @Test(arguments: Backend.allCases) func aGitignoreAboveTheWatchedPathIsFollowed(_ backend: Backend) {
        let repo = TestRepository()
        defer { repo.remove() }
        let src = repo.top + "/src"
        repo.makeDirectories(src)
        let (recorder, subscription) = record([src], options: repo.options(), backend: backend)
        defer { subscription.dispose() }
        // One inotify queue keeps order: the watcher reads the new rule
        // before the write that follows it. A polling pass looks at the
        // rule files before the tree.
        repo.write(".gitignore", "*.cache\n")
        Disk.write(src + "/a.cache")
        #expect(settle(recorder, in: src, backend: backend))
        #expect(!recorder.snapshot.contains { $0.path.string.hasSuffix(".cache") })
    }

    @Test(arguments: ["fifo", "directory", "huge", "socket"])
    func aGitignoreThatIsNotASmallRegularFileIsSkippedWithOneWarning(_ kind: String) {
        let dir = TempDir()
        defer { dir.remove() }
        let ignoreFile = dir.at(".gitignore")
        switch kind {
        case "fifo": #expect(mkfifo(ignoreFile, 0o644) == 0)
        case "directory": Disk.makeDirectories(ignoreFile)
        case "huge": Disk.write(ignoreFile, "*.txt\n" + String(repeating: "#", count: 1 << 20))
        default: #expect(bindSocket(ignoreFile))
        }
        let (notices, noticeSubscription) = recordNotices(about: ignoreFile)
        defer { noticeSubscription.dispose() }
        // Arming returns (a FIFO is never opened for reading, so nothing blocks).
        let (recorder, subscription) = record([dir.path])
        defer { subscription.dispose() }
        Disk.write(dir.at("a.txt"))
        #expect(eventually { recorder.has(.closedWrite, dir.at("a.txt")) })
        #expect(eventually { notices.snapshot.count == 1 })
        // Another watch of the same tree does not warn again.
        let (_, second) = record([dir.path])
        second.dispose()
        #expect(settle(recorder, in: dir.path))
        #expect(notices.snapshot.count == 1)
        #expect(notices.snapshot.first?.description.contains("skipped") == true)
    }

    @Test func pythonBytecodeWritesGiveNoEvents() {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.write(dir.at("calc.py"), "x = 1\n")
        let (recorder, subscription) = record([dir.path])
        defer { subscription.dispose() }
        // What CPython does on import: make __pycache__, write a temporary, rename it in place.
        Disk.makeDirectories(dir.at("__pycache__"))
        Disk.write(dir.at("__pycache__/calc.cpython-311.pyc.140397690985168"))
        Disk.rename(dir.at("__pycache__/calc.cpython-311.pyc.140397690985168"), dir.at("__pycache__/calc.cpython-311.pyc"))
        Disk.write(dir.at("legacy.pyc"))
        #expect(settle(recorder, in: dir.path))
        #expect(recorder.snapshot.allSatisfy { $0.path.string.hasSuffix("zz-marker") }, "\(recorder.snapshot)")
    }

    @Test(arguments: Backend.allCases) func anIgnoreFileOfGlobsIsReadAndFollowed(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        let list = dir.at("ignore-list")
        Disk.write(list, "# generated\n*.out\n")
        Disk.makeDirectories(dir.at("watched/gen"))
        let (recorder, subscription) = record([dir.at("watched")], options: WatchOptions(ignoreFiles: [list]), backend: backend)
        defer { subscription.dispose() }
        Disk.write(dir.at("watched/a.out"))
        #expect(settle(recorder, in: dir.at("watched"), backend: backend))
        #expect(!recorder.hasWrite(dir.at("watched/a.out"), backend))
        Disk.write(list, "gen/\n")
        #expect(eventually { !watching(dir.at("watched/gen"), backend) })
        Disk.write(dir.at("watched/b.out"))
        #expect(eventually { recorder.hasWrite(dir.at("watched/b.out"), backend) })
    }

    @Test func aBadLineOfAnIgnoreFileIsNamedWithItsLine() {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.write(dir.at("list"), "*.o\n\n[oops\n")
        #expect(throws: FileWatchError(.badGlob(pattern: "[oops", problem: "unclosed [ (\(dir.at("list")) line 3)"))) {
            try WatchOptions(ignoreFiles: [dir.at("list")]).validated()
        }
        #expect(throws: FileWatchError(.badRuleFile(path: FilePath(dir.at("missing")), problem: "no such file"))) {
            try WatchOptions(filterFiles: [dir.at("missing")]).validated()
        }
    }

    @Test(arguments: Backend.allCases) func aFilterFileNarrowsWhatIsReported(_ backend: Backend) {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.write(dir.at("list"), "*.swift\nzz-marker\n")
        Disk.makeDirectories(dir.at("w"))
        let (recorder, subscription) = record([dir.at("w")], options: WatchOptions(filterFiles: [dir.at("list")]), backend: backend)
        defer { subscription.dispose() }
        Disk.write(dir.at("w/a.swift"))
        Disk.write(dir.at("w/b.txt"))
        #expect(settle(recorder, in: dir.at("w"), backend: backend))
        #expect(Set(recorder.snapshot.map(\.path.string)) == [dir.at("w/a.swift"), dir.at("w/zz-marker")])
    }

    @Test func whyIgnoredNamesTheRuleFromAboveTheWatchedPath() {
        let repo = TestRepository()
        defer { repo.remove() }
        repo.write(".gitignore", "# output\nbuild/\n")
        repo.write("src/build/x.o", "")
        repo.write("src/main.c", "")
        let reason = FileWatcher.whyIgnored(repo.top + "/src/build/x.o", watching: repo.top + "/src")
        #expect(reason == IgnoreReason(source: .file(path: FilePath(repo.top + "/.gitignore"), line: 2), pattern: "build/", directory: FilePath(repo.top + "/src/build")))
        #expect(FileWatcher.whyIgnored(repo.top + "/src/main.c", watching: repo.top + "/src") == nil)
        #expect(FileWatcher.whyIgnored(repo.top + "/src/a.swp", watching: repo.top + "/src")?.description == "default ignore *.swp")
    }

    @Test func aNonRecursiveWatchReportsOnlyTheDirectorysOwnEntries() {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.makeDirectories(dir.at("sub"))
        let (recorder, subscription) = record([dir.path], options: WatchOptions(recursive: false))
        defer { subscription.dispose() }
        #expect(!watching(dir.at("sub")))
        Disk.write(dir.at("sub/deep.txt"))
        Disk.makeDirectories(dir.at("new/inner"))
        Disk.write(dir.at("top.txt"))
        #expect(settle(recorder, in: dir.path))
        let paths = Set(recorder.snapshot.map(\.path.string))
        #expect(paths == [dir.at("new"), dir.at("top.txt"), dir.at("zz-marker")], "\(paths)")
        #expect(!watching(dir.at("new")))
    }

    @Test func onlyTheKindsAskedForAreReported() {
        let dir = TempDir()
        defer { dir.remove() }
        Disk.write(dir.at("a.txt"))
        let (recorder, subscription) = record([dir.path], options: WatchOptions(kinds: [.created, .deleted]))
        defer { subscription.dispose() }
        Disk.append(dir.at("a.txt"), "more")
        chmod(dir.at("a.txt"), 0o600)
        Disk.write(dir.at("b.txt"))
        Disk.remove(dir.at("a.txt"))
        #expect(eventually { recorder.has(.deleted, dir.at("a.txt")) && recorder.has(.created, dir.at("b.txt")) })
        #expect(Set(recorder.snapshot.map(\.kind)) == [.created, .deleted])
    }
}

/// Binds a Unix socket at `path` (and leaves it there).
func bindSocket(_ path: String) -> Bool {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in bytes.enumerated() { raw[index] = byte }
    }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    } == 0
}
