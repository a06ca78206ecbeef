import Glibc
import Service
import Testing
import TestSupport
import WatchmanProtocol

/// A client that is not the service's owner (`debug-drop-privs`) may look
/// at what is watched but not change it: watchman's rule, which its own
/// test of `debug-drop-privs` checks.
@Suite struct OwnerTests {
    private func refused(_ reply: WatchmanValue) -> Bool {
        reply["error"]?.text?.hasPrefix("permission denied: only the owner of this service may") == true
    }

    @Test func aClientThatDroppedItsPrivilegesMayLookButNotChange() throws {
        let service = try ServiceRoot()
        service.write("a.txt")
        #expect(service.watch()["error"] == nil)
        let other = TemporaryDirectory(prefix: "rwatch-other")
        defer { other.remove() }
        let root = WatchmanValue.string(service.root)

        #expect(service.call(["debug-drop-privs"])["owner"] == false)
        // It looks: the root already watched, its files, the list of roots.
        #expect(service.watch()["watch"] == root)
        #expect(service.call(["watch-project", .string(service.root)])["watch"] == root)
        #expect(service.names().contains("a.txt"))
        #expect(service.call(["watch-list"])["roots"] == [root])
        #expect(service.call(["clock", root])["clock"] != nil)
        // It changes nothing.
        let added = service.call(["watch", .string(other.path)])
        #expect(refused(added), "\(added)")
        #expect(added["error"]?.text?.contains("is not watched") == true)
        #expect(refused(service.call(["watch-project", .string(other.path)])))
        #expect(refused(service.call(["watch-del", root])))
        #expect(refused(service.call(["watch-del-all"])))
        #expect(refused(service.call(["trigger", root, ["name": "t", "command": ["true"]]])))
        #expect(refused(service.call(["state-enter", root, "busy"])))
        #expect(refused(service.call(["shutdown-server"])))
        #expect(service.call(["watch-list"])["roots"] == [root])
        #expect(service.call(["trigger-list", root])["triggers"] == [])

        // Another connection is still the owner.
        let owner = service.running.connect()
        #expect(owner.request(["watch-del", root])?["watch-del"] == true)
        #expect(owner.request(["watch-list"])?["roots"] == [])
    }
}
