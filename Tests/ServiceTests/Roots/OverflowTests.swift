import Glibc
import SystemPackage
import Testing
import TestSupport
import WatchmanProtocol
@testable import WatchSources

/// A kernel queue overflow, provoked through the reader's test hooks: the
/// root's watcher hears nothing for a while (as when the queue dropped its
/// events), then gets the overflow. The root crawls again and finds
/// everything, deletions included; a clock from before stays valid.
@Suite struct OverflowTests {
    @Test func changesLostInAnOverflowAreFoundByTheRecrawl() throws {
        // Given to the root's reader, made by `watch`.
        let seams = ReaderSeams.installForNewReaders()
        let service = try ServiceRoot()
        for name in ["stays", "edited", "deleted"] { service.write(name, "1") }
        service.mkdir("dir")
        service.write("dir/inside")
        service.watch()
        let clock = service.call(["clock", .string(service.root), ["sync_timeout": 10_000]])["clock"] ?? .null
        let root = FilePath(service.root)
        seams.deafen(root: root)
        service.write("edited", "22")
        service.remove("deleted")
        service.remove("dir/inside")
        rmdir(service.tree.file("dir"))
        service.write("created")
        seams.injectOverflow(root: root)
        let reply = service.call(["query", .string(service.root), ["since": clock, "fields": ["name", "exists"]]])
        #expect(reply["is_fresh_instance"] == .bool(false))
        let files = Set((reply["files"]?.elements ?? []).map { "\($0["name"]?.text ?? "?"):\($0["exists"] == .bool(true))" })
        #expect(files == ["edited:true", "deleted:false", "dir:false", "dir/inside:false", "created:true"])
        #expect(reply["warning"]?.text?.contains("Recrawled this watch 1 time") == true)
        #expect(service.names() == ["created", "edited", "stays"])
    }
}

/// A FUSE mount inside a root is polled; its changes (made behind the
/// mount's back, so inotify never hears of them) reach a synced query:
/// the mount gets a cookie of its own, seen by the poller's next pass.
@Suite struct PolledMountTests {
    @Test func aSyncedQuerySeesAChangeOnAPolledMount() throws {
        let service = try ServiceRoot()
        let source = TemporaryDirectory(prefix: "rwatch-fuse-source")
        defer { source.remove() }
        service.mkdir("mnt")
        let mount = try BindMount(source: source.path, view: service.tree.file("mnt"))
        defer { mount.unmount() }
        service.watch()
        var clock = service.call(["clock", .string(service.root), ["sync_timeout": 20_000]])["clock"] ?? .null
        for round in 0..<3 {
            source.write("remote\(round)", "x")
            let reply = service.call(["query", .string(service.root), ["since": clock, "fields": ["name"], "sync_timeout": 20_000]])
            let files = reply["files"]?.elements ?? []
            #expect(files.contains(.string("mnt/remote\(round)")), "round \(round)")
            clock = reply["clock"] ?? .null
        }
    }
}
