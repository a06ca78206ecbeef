import Glibc
import SystemPackage
import Testing
@testable import WatchSources
import TestSupport

/// What git tracks counts, as `git status` shows it: a tracked file that
/// an ignore pattern matches is still reported, on every backend, and what
/// git tracks is followed as its index and the rules change.
@Suite struct TrackedFilesTests {
    /// Writes each of `files` (from the top) and returns the paths (from
    /// the top) a watch of the top with `backend` reported.
    private func reported(_ repo: TestRepository, _ backend: Backend, writing files: [String], watching root: String = "") -> Set<String> {
        let rootPath = root.isEmpty ? repo.top : repo.top + "/" + root
        let (recorder, subscription) = record([rootPath], options: repo.options(WatchOptions(useDefaultIgnore: false)), backend: backend)
        defer { subscription.dispose() }
        for file in files { Disk.append(repo.top + "/" + file, "more\n") }
        switch backend {
        case .inotify: InotifyReader.shared.barrier()
        case .poll: PollScanner.shared.fence()
        }
        return Set(recorder.snapshot.compactMap { FileSystem.relativeText($0.path, to: FilePath(repo.top)) })
    }

    /// A committed `config/local.json` under `*.json`, a vendored file
    /// under `vendor/`: reported; their untracked neighbours are not.
    @Test(arguments: Backend.allCases) func aTrackedFileThatARuleMatchesIsReported(_ backend: Backend) {
        let repo = TestRepository()
        defer { repo.remove() }
        repo.write(".gitignore", "*.json\nvendor/\n")
        for file in ["config/local.json", "config/other.json", "vendor/lib/x.c", "vendor/y.c", "vendor/lib/z.c", "src/main.c"] {
            repo.write(file, "x\n")
        }
        repo.git(["add", ".gitignore", "src/main.c"])
        repo.git(["add", "-f", "config/local.json", "vendor/lib/x.c"])
        let files = ["config/local.json", "config/other.json", "vendor/lib/x.c", "vendor/y.c", "vendor/lib/z.c", "src/main.c"]
        #expect(reported(repo, backend, writing: files) == ["config/local.json", "vendor/lib/x.c", "src/main.c"])
        // In place once `subscribe` returns, as every watch is.
        let (_, subscription) = record([repo.top], options: repo.options(), backend: backend)
        #expect(watching(repo.top + "/vendor/lib", backend))
        subscription.dispose()
        // Watched from below the top, the same.
        #expect(reported(repo, backend, writing: files, watching: "vendor") == ["vendor/lib/x.c", "vendor/y.c", "vendor/lib/z.c"])
        #expect(reported(repo, backend, writing: files, watching: "config") == ["config/local.json"])
    }

    /// `git add -f` makes an ignored file count, `git rm --cached` makes it
    /// ignored again: the index is followed while watching.
    @Test(arguments: Backend.allCases) func theIndexIsFollowed(_ backend: Backend) {
        let repo = TestRepository()
        defer { repo.remove() }
        repo.write(".gitignore", "*.log\nout/\n")
        repo.write("app.log", "x\n")
        repo.write("out/keep/result.txt", "x\n")
        let (recorder, subscription) = record([repo.top], options: repo.options(), backend: backend)
        defer { subscription.dispose() }
        repo.git(["add", "-f", "app.log", "out/keep/result.txt"])
        #expect(writtenUntilReported(repo.top + "/app.log", recorder, backend))
        #expect(writtenUntilReported(repo.top + "/out/keep/result.txt", recorder, backend))
        #expect(watching(repo.top + "/out/keep", backend))
        repo.git(["rm", "-q", "-f", "--cached", "app.log", "out/keep/result.txt"])
        #expect(eventually { !watching(repo.top + "/out", backend) })
        #expect(writtenUntilDropped(repo.top + "/app.log", recorder, backend, in: repo.top))
    }

    /// A rule added for a tracked file leaves it counted.
    @Test(arguments: Backend.allCases) func aRuleAddedForATrackedFileLeavesItCounted(_ backend: Backend) {
        let repo = TestRepository()
        defer { repo.remove() }
        repo.write("settings.txt", "x\n")
        repo.write("notes.txt", "x\n")
        repo.git(["add", "settings.txt"])
        let (recorder, subscription) = record([repo.top], options: repo.options(), backend: backend)
        defer { subscription.dispose() }
        repo.write(".gitignore", "*.txt\n")
        #expect(writtenUntilDropped(repo.top + "/notes.txt", recorder, backend, in: repo.top))
        #expect(writtenUntilReported(repo.top + "/settings.txt", recorder, backend))
    }

    /// Writes `path` again until a write of it is reported.
    private func writtenUntilReported(_ path: String, _ recorder: Recorder, _ backend: Backend) -> Bool {
        var attempt = 0
        return eventually {
            attempt += 1
            if attempt % 50 == 1 { Disk.append(path, "\(attempt)\n") }
            return recorder.hasWrite(path, backend)
        }
    }

    /// Writes `path` until a write of it, then a marker, leaves `path` unreported.
    private func writtenUntilDropped(_ path: String, _ recorder: Recorder, _ backend: Backend, in directory: String) -> Bool {
        var round = 0
        return eventually {
            round += 1
            let before = recorder.events(for: path).count
            Disk.append(path, "\(round)\n")
            guard settle(recorder, in: directory, name: "zz-marker-\(round)", backend: backend) else { return false }
            return recorder.events(for: path).count == before
        }
    }

    /// Generated trees with a random part committed, every file written:
    /// what a watch of the top reports is what `git status` lists.
    @Test(arguments: Backend.allCases, 0..<12) func generatedTreesAgreeWithGitStatus(_ backend: Backend, seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &* 6_700_417 &+ 11)
        let repo = TestRepository()
        defer { repo.remove() }
        let tree = GeneratedTree(&random)
        tree.write(into: repo)
        let files = tree.paths.filter { !$0.value }.keys.sorted()
        let committed = files.filter { _ in Bool.random(using: &random) }
        if !committed.isEmpty {
            repo.git(["add", "-f", "--"] + committed)
            repo.git(["commit", "-q", "-m", "some"])
        }
        let ours = reported(repo, backend, writing: files)
        let status = repo.git(["status", "--porcelain", "-z", "--untracked-files=all"]).output
        let theirs = Set(status.split(separator: "\u{0}").map { String($0.dropFirst(3)) })
            .filter { !$0.hasSuffix(".gitignore") && $0 != ".gitignore" }
        #expect(ours == theirs, "\(backend), seed \(seed), committed \(committed)\n\(tree.description)")
    }
}
