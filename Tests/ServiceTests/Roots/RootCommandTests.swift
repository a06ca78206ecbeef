import Glibc
import Testing
import TestSupport
import WatchSources
import WatchmanProtocol
@testable import Service

/// The root commands over a real socket, on real files with real inotify.
@Suite struct RootCommandTests {
    @Test func aWatchedTreeIsQueriedWithoutGitignoreButWithVersionControlDepth() throws {
        let service = try ServiceRoot()
        service.mkdir(".git")
        service.mkdir(".git/objects")
        service.mkdir(".git/objects/pack")
        service.write(".git/objects/pack/p")
        service.write(".gitignore", "ignored\n")
        service.write("ignored")
        service.mkdir("sub")
        service.write("sub/a.c")
        let watched = service.watch()
        #expect(watched["watch"]?.stringBytes == Array(service.root.utf8))
        #expect(watched["watcher"]?.text == "inotify")
        #expect(service.names() == [".git", ".git/objects", ".gitignore", "ignored", "sub", "sub/a.c"])
    }

    @Test func aSyncedQuerySeesEveryChangeMadeBeforeIt() throws {
        let service = try ServiceRoot()
        service.watch()
        var clock = service.call(["clock", .string(service.root)])["clock"] ?? .null
        for round in 0..<20 {
            let name = "f\(round)"
            service.write(name, "x")
            if round > 0 { service.remove("f\(round - 1)") }
            let reply = service.call(["query", .string(service.root), ["since": clock, "fields": ["name", "exists"]]])
            let files = reply["files"]?.elements ?? []
            #expect(files.contains { $0["name"]?.stringBytes == Array(name.utf8) && $0["exists"] == .bool(true) }, "round \(round)")
            if round > 0 {
                #expect(files.contains { $0["name"]?.stringBytes == Array("f\(round - 1)".utf8) && $0["exists"] == .bool(false) }, "round \(round)")
            }
            #expect(reply["is_fresh_instance"] == .bool(false))
            clock = reply["clock"] ?? .null
        }
    }

    @Test func aFileMovedOutOfTheTreeIsGoneForTheNextSyncedQuery() throws {
        let service = try ServiceRoot()
        let outside = TemporaryDirectory(prefix: "rwatch-outside")
        defer { outside.remove() }
        service.watch()
        for round in 0..<10 {
            service.write("moved\(round)")
            let clock = service.call(["clock", .string(service.root), ["sync_timeout": 10_000]])["clock"] ?? .null
            rename(service.tree.file("moved\(round)"), outside.file("moved\(round)"))
            let reply = service.call(["query", .string(service.root), ["since": clock, "fields": ["name", "exists"]]])
            #expect(reply["files"] == [["name": .string("moved\(round)"), "exists": false]], "round \(round): \(reply)")
        }
    }

    /// A reader still behind at the deadline (a storm it reads) makes a
    /// sync time out with watchman's error, as an unseen cookie does,
    /// rather than wait on.
    @Test func aSyncWhoseReaderIsBehindTimesOutAtItsDeadline() throws {
        // Given to the root's reader, made by `watch`.
        let seams = ReaderSeams.installForNewReaders()
        let service = try ServiceRoot()
        service.watch()
        let release = seams.holdReaders()
        let reply = service.call(["clock", .string(service.root), ["sync_timeout": 100]])
        release()
        #expect(reply["error"]?.text == "syncToNow: timed out waiting for cookie file to be observed by watcher within 100 milliseconds")
        #expect(service.call(["clock", .string(service.root), ["sync_timeout": 10_000]])["clock"] != nil)
    }

    @Test func aWriteToAFileStillOpenIsSeenBySyncedQuery() throws {
        let service = try ServiceRoot()
        service.write("log")
        service.watch()
        let fd = open(service.tree.file("log"), O_WRONLY | O_APPEND)
        defer { close(fd) }
        for round in 1...5 {
            let clock = service.call(["clock", .string(service.root), ["sync_timeout": 10_000]])["clock"] ?? .null
            _ = Glibc.write(fd, "x", 1)
            let reply = service.call(["query", .string(service.root), ["since": clock, "fields": ["name", "size"]]])
            #expect(reply["files"] == [["name": "log", "size": .int(Int64(round))]], "round \(round)")
        }
    }

    @Test func namedCursorsStartFreshThenReportChanges() throws {
        let service = try ServiceRoot()
        service.write("one")
        service.watch()
        let first = service.call(["query", .string(service.root), ["since": "n:c", "fields": ["name", "new"]]])
        #expect(first["is_fresh_instance"] == .bool(true))
        #expect(first["files"] == [["name": "one", "new": true]])
        service.write("two")
        let second = service.call(["query", .string(service.root), ["since": "n:c", "fields": ["name", "new"]]])
        #expect(second["is_fresh_instance"] == .bool(false))
        #expect(second["files"] == [["name": "two", "new": true]])
        #expect(service.call(["debug-show-cursors", .string(service.root)])["cursors"]?["n:c"] != nil)
    }

    @Test func watchmanconfigIgnoresDirectoriesAndIsReadAgainWhenItChanges() throws {
        let service = try ServiceRoot()
        service.write(".watchmanconfig", "{\"ignore_dirs\": [\"build\"]}")
        service.mkdir("build")
        service.write("build/out")
        service.mkdir("tmp")
        service.write("tmp/scratch")
        service.watch()
        #expect(service.names() == [".watchmanconfig", "tmp", "tmp/scratch"])
        #expect(service.call(["get-config", .string(service.root)])["config"]?["ignore_dirs"] == ["build"])
        service.write(".watchmanconfig", "{\"ignore_dirs\": [\"build\", \"tmp\"]}")
        #expect(eventually { service.names() == [".watchmanconfig"] })
        service.write(".watchmanconfig", "{\"ignore_dirs\": [")
        #expect(eventually { service.call(["clock", .string(service.root), ["sync_timeout": 10_000]])["warning"] == nil
            && service.call(["query", .string(service.root), [:]])["warning"]?.text?.contains("failed to parse json") == true })
        #expect(service.names() == [".watchmanconfig"])
    }

    /// Watchman's own error text tells users to create an empty one, and
    /// many projects ship one: it is `{}`.
    @Test func anEmptyWatchmanconfigIsAnEmptyObject() throws {
        for content in ["", "\n", "  \n\t"] {
            let service = try ServiceRoot()
            service.write(".watchmanconfig", content)
            service.write("foo")
            let answer = service.watch()
            #expect(answer["error"] == nil, "\(answer)")
            #expect(service.call(["get-config", .string(service.root)])["config"] == [:])
            #expect(service.names() == [".watchmanconfig", "foo"])
        }
    }

    @Test func aDamagedWatchmanconfigRefusesTheWatch() throws {
        let service = try ServiceRoot()
        service.write(".watchmanconfig", "{\"ignore_dirs\":[\"foo\",],}")
        #expect(service.watch()["error"]?.text?.contains("failed to parse json") == true)
        service.write(".watchmanconfig", "{\"ignore_vcs\": \"lemon\"}")
        #expect(service.watch()["error"]?.text?.contains("ignore_vcs must be an array of strings") == true)
    }

    @Test func theCookieDirectoryCanBeRemovedRightAfterASyncedQuery() throws {
        let service = try ServiceRoot()
        service.mkdir(".hg")
        service.write("foo")
        service.watch()
        #expect(service.names() == [".hg", "foo"])
        #expect(rmdir(service.tree.file(".hg")) == 0, "a cookie was left in .hg")
        #expect(service.names() == ["foo"])
        #expect(service.names() == ["foo"])
    }

    @Test func aDeletedRootIsLetGo() throws {
        let service = try ServiceRoot()
        service.watch()
        #expect(service.names() == [])
        service.tree.remove()
        #expect(eventually {
            let error = service.call(["query", .string(service.root), ["fields": ["name"]]])["error"]?.text ?? ""
            return error.contains("root dir was removed") || error.contains("unable to resolve root")
        })
        #expect(eventually { service.call(["watch-list"])["roots"] == [] })
    }

    /// The query right after the root's removal is an error, never an
    /// empty answer: the sync looks at the root itself, not only at what
    /// the watcher has told the worker so far (watchman's test_cookie).
    @Test func aQueryRightAfterTheRootIsRemovedIsAnError() throws {
        for _ in 0..<20 {
            let service = try ServiceRoot()
            service.write("foo")
            service.watch()
            #expect(service.names() == ["foo"])
            service.remove("foo")
            #expect(service.names() == [])
            service.tree.remove()
            let error = service.call(["query", .string(service.root), ["fields": ["name"]]])["error"]?.text ?? "no error"
            #expect(error.contains("root dir was removed") || error.contains("unable to resolve root"), "\(error)")
        }
    }

    @Test func badRootsAreErrorsNotCrashes() throws {
        let service = try ServiceRoot()
        service.write("file")
        #expect(service.call(["watch", .string(service.root + "/file")])["error"]?.text?.contains("not a directory") == true)
        #expect(service.call(["watch", "relative/path"])["error"]?.text?.contains("must be absolute") == true)
        #expect(service.call(["watch", "/"])["error"]?.text?.contains("cannot watch \"/\"") == true)
        #expect(service.call(["watch", .string(service.root + "/missing")])["error"]?.text?.contains("No such file or directory") == true)
        #expect(service.call(["query", .string(service.root), [:]])["error"]?.text?.contains("is not watched") == true)
        service.watch()
        #expect(service.call(["query", .string(service.root), ["fields": ["colour"]]])["error"]?.text?.contains("unknown field name 'colour'") == true)
        #expect(service.call(["query", .string(service.root), ["expression": ["frob"]]])["error"]?.text?.contains("unknown expression term 'frob'") == true)
        #expect(service.call(["query", .string(service.root)])["error"]?.text == "wrong number of arguments for 'query'")
        #expect(service.call(["clock"])["error"]?.text == "wrong number of arguments to 'clock'")
        #expect(service.call(["query", 7, [:]])["error"]?.text?.contains("second argument must be a string") == true)
    }

    @Test func watchProjectFindsTheMarkerAndSaysWhereThePathLies() throws {
        let service = try ServiceRoot()
        service.mkdir(".git")
        service.mkdir("a")
        service.mkdir("a/b")
        let reply = service.call(["watch-project", .string(service.root + "/a/b")])
        #expect(reply["watch"]?.stringBytes == Array(service.root.utf8))
        #expect(reply["relative_path"]?.stringBytes == Array("a/b".utf8))
        #expect(service.call(["watch-project", .string(service.root)])["relative_path"] == nil)
        #expect(service.call(["watch-list"])["roots"] == [.string(service.root)])
        #expect(service.call(["watch-del", .string(service.root)])["watch-del"] == .bool(true))
        #expect(service.call(["watch-list"])["roots"] == [])
    }

    @Test func findAndSinceTakeSimplePatterns() throws {
        let service = try ServiceRoot()
        service.write("foo.c")
        service.write("bar.txt")
        service.watch()
        let names = { (reply: WatchmanValue) in (reply["files"]?.elements ?? []).compactMap { $0["name"]?.stringBytes.map { String(decoding: $0, as: UTF8.self) } }.sorted() }
        #expect(names(service.call(["find", .string(service.root), "*.c"])) == ["foo.c"])
        #expect(names(service.call(["find", .string(service.root), "-p", ".*txt$"])) == ["bar.txt"])
        #expect(names(service.call(["find", .string(service.root), "-P", ".*C$"])) == ["foo.c"])
        #expect(names(service.call(["find", .string(service.root), "-X", "*.c"])) == ["bar.txt"])
        #expect(service.call(["find", .string(service.root), "-p", "("])["error"]?.text?.contains("at offset 1 in (") == true)
        let since = service.call(["since", .string(service.root), "n:x", "*.txt"])
        #expect(names(since) == ["bar.txt"])
        #expect(since["files"]?.elements?.first?["oclock"] != nil)
    }

    @Test func agedOutDeletionsMakeOlderClocksFresh() throws {
        let service = try ServiceRoot()
        service.write("gone")
        service.write("kept")
        service.watch()
        let clock = service.call(["clock", .string(service.root)])["clock"] ?? .null
        _ = service.call(["since", .string(service.root), "n:old"])
        service.remove("gone")
        #expect(service.names() == ["kept"])
        #expect(service.call(["debug-ageout", .string(service.root), 0])["error"] == nil)
        let reply = service.call(["query", .string(service.root), ["since": clock, "fields": ["name"]]])
        #expect(reply["is_fresh_instance"] == .bool(true))
        #expect(reply["files"] == ["kept"])
        #expect(service.call(["debug-show-cursors", .string(service.root)])["cursors"]?["n:old"] == nil)
    }

    @Test func aRecrawlFindsWhatChangedAndWarns() throws {
        let service = try ServiceRoot()
        service.write("a")
        service.watch()
        let clock = service.call(["clock", .string(service.root), ["sync_timeout": 10_000]])["clock"] ?? .null
        service.write("b")
        #expect(service.call(["debug-recrawl", .string(service.root)])["error"] == nil)
        let reply = service.call(["query", .string(service.root), ["since": clock, "fields": ["name"]]])
        #expect(reply["is_fresh_instance"] == .bool(false))
        #expect(reply["files"] == ["b"])
        #expect(reply["warning"]?.text?.contains("Recrawled this watch 1 time") == true)
    }
}
