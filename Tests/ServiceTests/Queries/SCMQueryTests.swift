import Dispatch
import Glibc
import Signals
import Testing
import TestSupport
import WatchSources
import WatchmanProtocol
@testable import Service

/// Source-control-aware `since` (watchman's `scm-query.md`) on a real git
/// repository, over a real socket: the answer is what git itself says.
@Suite struct SCMQueryTests {
    /// Leaves out git's own directory, which the commands below change.
    static let outsideGit: WatchmanValue = ["not", ["anyof", ["name", ".git"], ["dirname", ".git"]]]

    @Test func theFirstQueryGivesWhatGitSaysChangedSinceTheMergeBaseAndAFatClock() throws {
        let service = try ServiceRoot()
        let repository = try Repository.branched(in: service)
        service.watch()
        let reply = service.call(["query", .string(service.root),
                                  ["since": ["scm": ["mergebase-with": "main"]], "fields": ["name"], "expression": Self.outsideGit]])
        let expected = repository.git("diff", "--name-only", repository.git("merge-base", "HEAD", "main")[0])
            + repository.git("ls-files", "--others", "--exclude-standard")
        #expect(Set(expected) == ["changed", "committed-deleted", "committed-added", "edited", "staged", "deleted", "untracked"])
        #expect(Self.names(reply).sorted() == Set(expected).sorted())
        #expect(reply["clock"]?["scm"]?["mergebase"]?.text == repository.git("merge-base", "HEAD", "main").first)
        #expect(reply["clock"]?["scm"]?["mergebase-with"]?.text == "main")
        #expect(reply["clock"]?["clock"]?.text?.hasPrefix("c:") == true)
        #expect(reply["is_fresh_instance"] == .bool(true))
    }

    @Test func aQuerySinceTheFatClockGivesOnlyWhatChangedOnDiskSinceIt() throws {
        let service = try ServiceRoot()
        _ = try Repository.branched(in: service)
        service.watch()
        let query: [(key: String, value: WatchmanValue)] = [("fields", ["name"]), ("expression", Self.outsideGit)]
        let first = service.call(["query", .string(service.root), .object([("since", ["scm": ["mergebase-with": "main"]])] + query)])
        service.write("later", "new")
        let next = service.call(["query", .string(service.root), .object([("since", first["clock"] ?? .null)] + query)])
        #expect(Self.names(next) == ["later"])
        #expect(next["is_fresh_instance"] == .bool(false))
        #expect(next["clock"]?["scm"] == first["clock"]?["scm"])
    }

    @Test func aMovedMergeBaseGivesTheWholeListSinceTheNewOneAgain() throws {
        let service = try ServiceRoot()
        let repository = try Repository.branched(in: service)
        service.watch()
        let query: [(key: String, value: WatchmanValue)] = [("fields", ["name"]), ("expression", Self.outsideGit)]
        let first = service.call(["query", .string(service.root), .object([("since", ["scm": ["mergebase-with": "main"]])] + query)])
        _ = repository.git("branch", "-f", "main", "HEAD")  // as when feature lands
        let next = service.call(["query", .string(service.root), .object([("since", first["clock"] ?? .null)] + query)])
        let mergebase = repository.git("merge-base", "HEAD", "main")[0]
        #expect(next["clock"]?["scm"]?["mergebase"]?.text == mergebase)
        #expect(next["clock"]?["scm"]?["mergebase"] != first["clock"]?["scm"]?["mergebase"])
        let expected = repository.git("diff", "--name-only", mergebase) + repository.git("ls-files", "--others", "--exclude-standard")
        #expect(Self.names(next).sorted() == Set(expected).sorted())
        #expect(next["is_fresh_instance"] == .bool(false))
    }

    @Test func theRelativeRootAndExpressionNarrowTheList() throws {
        let service = try ServiceRoot()
        let repository = try Repository.branched(in: service)
        service.mkdir("sub")
        service.write("sub/one.c", "1")
        service.write("sub/two.h", "2")
        _ = repository.git("add", "sub/one.c")
        service.watch()
        let reply = service.call(["query", .string(service.root),
                                  ["since": ["scm": ["mergebase-with": "main"]], "relative_root": "sub", "fields": ["name"],
                                   "expression": ["suffix", "c"]]])
        #expect(Self.names(reply) == ["one.c"])
    }

    @Test func aRootOutsideAnyGitRepositoryGivesWatchmansError() throws {
        let service = try ServiceRoot()
        service.write("file")
        service.watch()
        let reply = service.call(["query", .string(service.root), ["since": ["scm": ["mergebase-with": "main"], "clock": "c:0:0"]]])
        #expect(reply["error"]?.text?.contains("root does not support SCM-aware queries") == true, "\(reply)")
    }

    @Test func anSCMSinceWithoutMergebaseWithIsRefused() throws {
        let service = try ServiceRoot()
        service.watch()
        let reply = service.call(["query", .string(service.root), ["since": ["scm": [:]]]])
        #expect(reply["error"]?.text?.contains("key 'mergebase-with' is not present in this json object") == true)
    }

    @Test func versionClaimsGitSourceControl() throws {
        let service = try ServiceRoot()
        let reply = service.call(["version", ["required": ["scm-git", "scm-since"]]])
        #expect(reply["capabilities"] == ["scm-git": true, "scm-since": true])
    }

    @Test func aSubscriptionCarriesFatClocksAndThenJustTheChangesOnDisk() throws {
        let service = try ServiceRoot()
        let repository = try Repository.branched(in: service)
        service.watch()
        let client = SubscriberSocket(service.running.connect())
        let reply = client.call(["subscribe", .string(service.root), "scm",
                                 ["since": ["scm": ["mergebase-with": "main"]], "fields": ["name"], "expression": Self.outsideGit]])
        let mergebase = repository.git("merge-base", "HEAD", "main").first
        #expect(reply["clock"]?["scm"]?["mergebase"]?.text == mergebase)
        let first = client.take { $0["subscription"] == "scm" && $0["files"] != nil }?.last
        let expected = repository.git("diff", "--name-only", mergebase ?? "") + repository.git("ls-files", "--others", "--exclude-standard")
        #expect(first.map(SubscriberSocket.names)?.sorted() == Set(expected).sorted())
        #expect(first?["clock"]?["scm"]?["mergebase-with"]?.text == "main")
        service.write("later", "new")
        let next = client.take("scm", listing: "later")?.last
        #expect(next.map(SubscriberSocket.names) == ["later"])
        #expect(next?["since"]?["scm"]?["mergebase"]?.text == mergebase)
        #expect(next?["clock"]?["scm"]?["mergebase"]?.text == mergebase)
    }

    private static func names(_ reply: WatchmanValue) -> [String] {
        (reply["files"]?.elements ?? []).compactMap(\.text)
    }
}

/// A git repository in a service's tree, driven through the `git` command.
struct Repository {
    let path: String

    /// `main` with a base commit and one more after `feature` left it;
    /// `feature` checked out, with a commit that edits, adds and deletes,
    /// and on disk: an edit, a staged new file, a deleted tracked file, an
    /// untracked file and an ignored one.
    static func branched(in service: ServiceRoot) throws -> Repository {
        let repository = Repository(path: service.root)
        _ = repository.git("init", "-q", "-b", "main")
        for name in ["changed", "committed-deleted", "edited", "deleted", "same"] { service.write(name, name) }
        service.write(".gitignore", "ignored\n")
        _ = repository.git("add", "-A")
        _ = repository.git("commit", "-q", "-m", "base")
        _ = repository.git("checkout", "-q", "-b", "feature")
        service.write("changed", "changed on feature")
        service.write("committed-added", "new")
        service.remove("committed-deleted")
        _ = repository.git("add", "-A")
        _ = repository.git("commit", "-q", "-m", "feature")
        _ = repository.git("checkout", "-q", "main")
        service.write("main-only", "main")
        _ = repository.git("add", "-A")
        _ = repository.git("commit", "-q", "-m", "main moves on")
        _ = repository.git("checkout", "-q", "feature")
        service.write("edited", "edited on disk")
        service.write("staged", "staged")
        _ = repository.git("add", "staged")
        service.remove("deleted")
        service.write("untracked", "untracked")
        service.write("ignored", "ignored")
        return repository
    }

    /// Runs git in the repository; its output's lines (failing the test when it fails).
    func git(_ arguments: String...) -> [String] {
        let identity = ["-c", "user.name=rwatch", "-c", "user.email=rwatch@example.invalid", "-c", "commit.gpgsign=false"]
        var options = ProcessOptions(workingDirectory: path)
        options.environment = ["GIT_CONFIG_NOSYSTEM": "1", "HOME": path]
        let lines = Locked<[String]>([])
        let status = Locked<WatchSources.ExitStatus?>(nil)
        let done = DispatchSemaphore(value: 0)
        let subscription = ProcessSource.run(["git"] + identity + arguments, options: options).subscribe(
            onNext: { event in
                switch event {
                case .stdout(let line): lines.withLock { $0.append(line) }
                case .exited(let exit): status.withLock { $0 = exit }
                default: break
                }
            },
            onError: { _ in done.signal() },
            onCompleted: { done.signal() }
        )
        done.wait()
        subscription.dispose()
        #expect(status.withLock { $0 }?.succeeded == true, "git \(arguments.joined(separator: " "))")
        return lines.withLock { $0 }
    }
}
