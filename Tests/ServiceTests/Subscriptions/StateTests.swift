import Glibc
import Testing
import TestSupport
import WatchmanProtocol
@testable import Service

/// `state-enter` and `state-leave` between two clients: one holds a state
/// while the other's subscriptions defer or drop what happens during it.
/// A second subscription of the watching client that names no state is
/// the witness that a settle has passed (both are evaluated at each).
@Suite struct StateTests {
    private func isNotice(_ key: String, _ state: String) -> (WatchmanValue) -> Bool {
        { $0["subscription"] == "held" && $0[key] == .string(state) }
    }

    /// The watching client with `held` (policy `policy`) and `witness`, both past their first results.
    private func watcher(_ service: ServiceRoot, _ policy: (key: String, value: WatchmanValue)) -> SubscriberSocket {
        let client = SubscriberSocket(service.running.connect())
        _ = client.call(["subscribe", .string(service.root), "held", .object([("fields", ["name"]), policy])])
        _ = client.call(["subscribe", .string(service.root), "witness", ["fields": ["name"]]])
        _ = client.take { $0["subscription"] == "held" && $0["files"] != nil }
        _ = client.take { $0["subscription"] == "witness" && $0["files"] != nil }
        return client
    }

    @Test func aDeferredStateHoldsResultsUntilItIsLeft() throws {
        let service = try ServiceRoot()
        service.watch()
        let client = watcher(service, ("defer", ["build"]))
        let entered = service.call(["state-enter", .string(service.root), ["name": "build", "metadata": ["step": 1]]])
        #expect(entered["state-enter"] == "build")
        let notice = client.take(until: isNotice("state-enter", "build"))?.last
        #expect(notice?["metadata"] == ["step": 1])
        #expect(notice?["clock"]?.text?.hasPrefix("c:") == true)
        let states = service.call(["debug-get-asserted-states", .string(service.root)])["states"]
        #expect(states == [["name": "build", "state": "Asserted"]])
        service.write("during")
        let held = client.take("witness", listing: "during") ?? []
        #expect(!held.contains { $0["subscription"] == "held" && $0["files"] != nil })
        _ = service.call(["state-leave", .string(service.root), ["name": "build", "metadata": "done"]])
        let after = client.take(until: { $0["subscription"] == "held" && $0["files"] != nil }) ?? []
        #expect(after.first { $0["subscription"] == "held" }?["state-leave"] == "build")
        #expect(after.first { $0["subscription"] == "held" }?["metadata"] == "done")
        #expect(after.last.map(SubscriberSocket.names) == ["during"])
    }

    @Test func aDroppedStateDiscardsWhatHappenedDuringIt() throws {
        let service = try ServiceRoot()
        service.watch()
        let client = watcher(service, ("drop", ["build"]))
        _ = service.call(["state-enter", .string(service.root), "build"])
        _ = client.take(until: isNotice("state-enter", "build"))
        service.write("during")
        let held = client.take("witness", listing: "during") ?? []
        #expect(!held.contains { $0["subscription"] == "held" && $0["files"] != nil })
        _ = service.call(["state-leave", .string(service.root), "build"])
        _ = client.take(until: isNotice("state-leave", "build"))
        service.write("later")
        let next = client.take(until: { $0["subscription"] == "held" && $0["files"] != nil })?.last
        #expect(next.map(SubscriberSocket.names) == ["later"])
    }

    @Test func aStateIsLeftAbandonedWhenItsClientGoesAway() throws {
        let service = try ServiceRoot()
        service.watch()
        let client = watcher(service, ("defer", ["build"]))
        var holder: WatchmanSocket? = service.running.connect()
        #expect(holder?.request(["state-enter", .string(service.root), "build"])?["state-enter"] == "build")
        _ = client.take(until: isNotice("state-enter", "build"))
        service.write("during")
        _ = client.take("witness", listing: "during")
        holder = nil
        let after = client.take(until: { $0["subscription"] == "held" && $0["files"] != nil }) ?? []
        let leave = after.first { $0["state-leave"] != nil }
        #expect(leave?["abandoned"] == .bool(true))
        #expect(after.last.map(SubscriberSocket.names) == ["during"])
        #expect(service.call(["debug-get-asserted-states", .string(service.root)])["states"] == [])
        _ = holder
    }

    @Test func aStateHeldByOneClientIsRefusedToAnother() throws {
        let service = try ServiceRoot()
        service.watch()
        let other = service.running.connect()
        _ = service.call(["state-enter", .string(service.root), "build"])
        #expect(other.request(["state-enter", .string(service.root), "build"])?["error"] == "state build is already Asserted or PendingEnter")
        #expect(other.request(["state-leave", .string(service.root), "build"])?["error"] == "state build is not asserted")
        #expect(service.call(["state-enter", .string(service.root), "build"])["error"] == "state build is already asserted")
    }
}
