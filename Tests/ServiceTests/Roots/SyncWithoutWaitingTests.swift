import Glibc
import Testing
import TestSupport
import WatchSources
import WatchmanProtocol
@testable import Service

/// A sync where inotify watches needs no cookie: the kernel queues a
/// change's record before the change's system call returns, so what the
/// reader finds queued holds every change made before the request. And a
/// small query of a root whose reader is caught up is answered on the
/// socket loop, without waiting; anything else still gets its answer,
/// from a worker.
@Suite struct SyncWithoutWaitingTests {
    /// Before, each sync created and removed a cookie in `.git` (or the
    /// root): churn every other watcher of the tree (an editor, a second
    /// service, git's own fsmonitor clients) woke up for.
    @Test func aSyncWritesNoCookieWhereInotifyWatchesAndStillMovesTheClock() throws {
        let service = try ServiceRoot()
        service.mkdir(".git")
        service.watch()
        let spy = CreationSpy([service.tree.path, service.tree.file(".git")])
        defer { spy.close() }
        var clocks: [String] = []
        for _ in 0..<3 {
            clocks.append(service.call(["clock", .string(service.root), ["sync_timeout": 10_000]])["clock"]?.text ?? "")
            service.write("seen")
            #expect(service.names().contains("seen"), "a change made before a synced query is missing from it")
            service.remove("seen")
        }
        #expect(!spy.created().contains { $0.hasPrefix(".watchman-cookie-") }, "\(spy.created())")
        #expect(Set(clocks).count == 3, "two synced clocks are the same: \(clocks)")
    }

    @Test func aSmallQueryOfACaughtUpRootIsAnsweredOnTheLoop() throws {
        let service = try ServiceRoot()
        service.write("one")
        service.watch()
        let clock = service.call(["clock", .string(service.root), ["sync_timeout": 10_000]])["clock"] ?? .null
        service.write("two")
        #expect(service.call(["query", .string(service.root), ["since": clock, "fields": ["name"]]])["files"] == ["two"])
        // The reader catches up at its own pace: the loop answers once it has.
        let server = service.running.server
        #expect(eventually {
            let before = server.answeredOnLoop
            let reply = service.call(["query", .string(service.root), ["since": clock, "fields": ["name"]]])
            return reply["files"] == ["two"] && server.answeredOnLoop == before + 1
        })
    }

    /// The loop answers none of these itself; each is right all the same.
    @Test func whatTheLoopCannotAnswerAtOnceAWorkerDoes() throws {
        // Given to the root's reader, made by `watch`.
        let seams = ReaderSeams.installForNewReaders()
        let service = try ServiceRoot()
        service.watch()
        let clock = service.call(["clock", .string(service.root), ["sync_timeout": 10_000]])["clock"] ?? .null
        let server = service.running.server
        let answered = server.answeredOnLoop

        // More changes than the loop looks at.
        let count = Root.answeredWithoutWaitingLimit + 44
        for index in 0..<count { service.write("f\(index)") }
        let many = service.call(["query", .string(service.root), ["since": clock, "fields": ["name"]]])
        #expect(many["files"]?.elements?.count == count)

        // A named cursor (it moves: a second try on a worker would see it moved).
        #expect(service.call(["query", .string(service.root), ["since": "n:c", "fields": ["name"]]])["is_fresh_instance"] == true)
        service.write("after")
        #expect(service.call(["query", .string(service.root), ["since": "n:c", "fields": ["name"]]])["files"] == ["after"])

        // A root named through a symbolic link: resolved with realpath, on a worker.
        let links = TemporaryDirectory(prefix: "rwatch-link")
        let link = links.file("root")
        #expect(symlink(service.root, link) == 0)
        #expect(service.call(["query", .string(link), ["since": clock, "fields": ["name"], "expression": ["name", "after"]]])["files"] == ["after"])

        // A reader held back: the worker's sync waits for it, and times out.
        let release = seams.holdReaders()
        let held = service.call(["query", .string(service.root), ["since": clock, "fields": ["name"], "sync_timeout": 100]])
        release()
        #expect(held["error"]?.text?.hasPrefix("syncToNow: timed out") == true)

        #expect(server.answeredOnLoop == answered)
    }
}

/// Names created in some directories, as a watcher of its own sees them.
private final class CreationSpy {
    private let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))

    init(_ directories: [String]) {
        for directory in directories { _ = inotify_add_watch(fd, directory, UInt32(IN_CREATE | IN_MOVED_TO)) }
    }

    /// Every name created so far.
    func created() -> [String] {
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return names }
            var offset = 0
            while offset + 16 <= count {
                let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
                let name = buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
                names.append(String(decoding: name, as: UTF8.self))
                offset += 16 + length
            }
        }
    }

    func close() { _ = Glibc.close(fd) }
}
