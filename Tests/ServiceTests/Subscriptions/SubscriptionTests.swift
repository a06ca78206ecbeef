import Glibc
import Testing
import TestSupport
import WatchmanProtocol
@testable import Service

/// Subscriptions over real sockets, on real files with real inotify.
@Suite struct SubscriptionTests {
    private func subscriber(_ service: ServiceRoot) -> SubscriberSocket {
        SubscriberSocket(service.running.connect())
    }

    private func isResult(_ name: String) -> (WatchmanValue) -> Bool {
        { $0["subscription"] == .string(name) && $0["files"] != nil }
    }

    @Test func theFirstResultFollowsTheReplyThenEachSettledChangeComes() throws {
        let service = try ServiceRoot()
        service.write("old")
        service.watch()
        let client = subscriber(service)
        let reply = client.call(["subscribe", .string(service.root), "s", ["fields": ["name"]]])
        #expect(reply["subscribe"] == "s")
        #expect(reply["clock"]?.text?.hasPrefix("c:") == true)
        #expect(client.unilateral.isEmpty, "the first result comes after the reply")
        let first = client.take(until: isResult("s"))?.last
        #expect(first?["is_fresh_instance"] == .bool(true))
        #expect(first.map(SubscriberSocket.names) == ["old"])
        #expect(first?["root"]?.text == service.root)
        #expect(first?["since"] == nil)
        service.write("new")
        let next = client.take("s", listing: "new")?.last
        #expect(next?["is_fresh_instance"] == .bool(false))
        // As watchman's, `since` is where the subscription was last
        // evaluated: the first result's clock, or later when a change with
        // nothing to send (a sync's cookie) came between.
        let tick = { (clock: WatchmanValue?) in clock?.text?.split(separator: ":").last.flatMap { Int($0) } }
        let (firstTick, since, nextTick) = (tick(first?["clock"]), tick(next?["since"]), tick(next?["clock"]))
        #expect(firstTick != nil && since != nil && nextTick != nil)
        #expect(since.map { $0 >= (firstTick ?? .max) && $0 < (nextTick ?? .min) } == true, "\(String(describing: next))")
        #expect(next?["since"]?.text?.split(separator: ":").dropLast() == first?["clock"]?.text?.split(separator: ":").dropLast())
        #expect(next.map(SubscriberSocket.names) == ["new"])
    }

    @Test(arguments: [WireEncoding.bserV1, .bserV2(capabilities: []), .json])
    func resultsComeInTheEncodingOfTheClientsRequests(_ encoding: WireEncoding) throws {
        let service = try ServiceRoot()
        service.write("old")
        service.watch()
        let client = SubscriberSocket(service.running.connect(), encoding: encoding)
        #expect(client.call(["subscribe", .string(service.root), "s", ["fields": ["name", "exists"]]])["subscribe"] == "s")
        let first = client.take(until: isResult("s"))?.last
        #expect(first?["files"] == [["name": "old", "exists": true]])
        service.remove("old")
        let next = client.take { $0["subscription"] == "s" && $0["files"] == [["name": "old", "exists": false]] }
        #expect(next != nil)
        #expect(Set(client.encodings.map(\.description)) == [encoding.description])
    }

    @Test func aSubscriptionSinceAClockStartsWithWhatChangedSince() throws {
        let service = try ServiceRoot()
        service.write("before")
        service.watch()
        let clock = service.call(["clock", .string(service.root), ["sync_timeout": 10_000]])["clock"] ?? .null
        service.write("after")
        let client = subscriber(service)
        _ = client.call(["subscribe", .string(service.root), "s", ["fields": ["name"], "since": clock]])
        let first = client.take(until: isResult("s"))?.last
        #expect(first?["is_fresh_instance"] == .bool(false))
        #expect(first?["since"] == clock)
        #expect(first.map(SubscriberSocket.names) == ["after"])
    }

    @Test func unsubscribingEndsTheResultsAndSaysWhetherItExisted() throws {
        let service = try ServiceRoot()
        service.watch()
        let client = subscriber(service)
        _ = client.call(["subscribe", .string(service.root), "gone", ["fields": ["name"]]])
        _ = client.call(["subscribe", .string(service.root), "kept", ["fields": ["name"]]])
        #expect(client.call(["unsubscribe", .string(service.root), "gone"])["deleted"] == .bool(true))
        #expect(client.call(["unsubscribe", .string(service.root), "gone"])["deleted"] == .bool(false))
        service.write("f")
        let seen = client.take("kept", listing: "f") ?? []
        #expect(!seen.contains { $0["subscription"] == "gone" && $0["is_fresh_instance"] == .bool(false) })
        let listed = client.call(["debug-get-subscriptions", .string(service.root)])["subscribers"]?.elements ?? []
        #expect(listed.compactMap { $0["info"]?["name"]?.text } == ["kept"])
    }

    @Test func aReusedNameWarnsOrIsRefusedWhenTheRootSaysSo() throws {
        let service = try ServiceRoot()
        service.watch()
        let client = subscriber(service)
        _ = client.call(["subscribe", .string(service.root), "s", ["fields": ["name"]]])
        let again = client.call(["subscribe", .string(service.root), "s", ["fields": ["name"]]])
        #expect(again["warning"] == "subscription name 's' is not unique")
        service.write(".watchmanconfig", #"{"enforce_unique_subscription_names": true}"#)
        #expect(eventually {
            client.call(["subscribe", .string(service.root), "s", ["fields": ["name"]]])["error"] == "subscription name 's' is not unique"
        })
    }

    @Test func flushSendsPendingResultsBeforeItsReply() throws {
        let service = try ServiceRoot()
        service.watch()
        let client = subscriber(service)
        _ = client.call(["subscribe", .string(service.root), "a", ["fields": ["name"], "expression": ["suffix", "a"]]])
        _ = client.call(["subscribe", .string(service.root), "b", ["fields": ["name"], "expression": ["suffix", "b"]]])
        _ = client.take(until: isResult("a"))
        _ = client.take(until: isResult("b"))
        let paused = client.call(["debug-set-subscriptions-paused", ["a": true, "b": true]])
        #expect(paused["paused"]?["a"] == ["old": false, "new": true])
        service.write("x.a")
        let flushed = client.call(["flush-subscriptions", .string(service.root), ["sync_timeout": 10_000]])
        #expect(flushed["synced"] == ["a"])
        #expect(flushed["no_sync_needed"] == ["b"])
        #expect(flushed["dropped"] == [])
        #expect(client.unilateral.filter { $0["subscription"] == "a" }.map(SubscriberSocket.names) == [["x.a"]])
        let refused = client.call(["flush-subscriptions", .string(service.root), ["sync_timeout": 1000, "subscriptions": ["nope"]]])
        #expect(refused["error"] == "this client does not have a subscription named 'nope'")
    }

    /// As watchman's own tests (test_subscribe's recrawl cases,
    /// test_since's `test_recrawlFreshInstance`) expect since its 4.x
    /// servers: a recrawl finds every difference, so a subscription goes
    /// on from its clock, not fresh; its results carry the recrawl warning.
    @Test func aRecrawlKeepsSubscriptionsAndWarnsInTheirResults() throws {
        let service = try ServiceRoot()
        service.write("gone")
        service.watch()
        let client = subscriber(service)
        _ = client.call(["subscribe", .string(service.root), "s", ["fields": ["name", "exists"]]])
        _ = client.take(until: isResult("s"))
        service.remove("gone")
        #expect(client.call(["debug-recrawl", .string(service.root)])["recrawl"] == .bool(true))
        service.write("later")
        let seen = client.take { $0["subscription"] == "s" && ($0["files"]?.elements ?? []).contains(["name": "later", "exists": true]) } ?? []
        let results = seen.filter { $0["subscription"] == "s" && $0["files"] != nil }
        #expect(!results.isEmpty)
        #expect(results.allSatisfy { $0["is_fresh_instance"] == .bool(false) })
        #expect(results.contains { ($0["files"]?.elements ?? []).contains(["name": "gone", "exists": false]) })
        #expect(results.last?["warning"]?.text?.contains("Recrawled this watch 1 time") == true)
    }

    /// A removed git worktree: its root goes at once, and its subscribers
    /// are told (`canceled`), as watchman tells them.
    @Test func aDeletedRootIsDroppedAndItsSubscribersTold() throws {
        let service = try ServiceRoot()
        service.watch()
        let client = subscriber(service)
        #expect(client.call(["subscribe", .string(service.root), "gone", ["fields": ["name"]]])["subscribe"] == "gone")
        service.tree.remove()
        let cancelled = client.take { $0["subscription"] == "gone" && $0["canceled"] == .bool(true) }?.last
        #expect(cancelled?["root"]?.text == service.root)
        #expect(eventually { service.call(["watch-list"])["roots"] == [] })
    }

    /// `idle_reap_age_seconds`: a root no command used for that long is
    /// let go, never one a subscription keeps. The kept root was used
    /// first, so the pass that reaps the idle one found it idle as long.
    @Test func anIdleRootIsReapedButNeverOneWithASubscription() throws {
        let service = try ServiceRoot(housekeeping: .milliseconds(50))
        let idle = TemporaryDirectory(prefix: "rwatch-idle")
        defer { idle.remove() }
        for tree in [service.tree, idle] { tree.write(".watchmanconfig", "{\"idle_reap_age_seconds\": 1}") }
        service.watch()
        let client = subscriber(service)
        #expect(client.call(["subscribe", .string(service.root), "keeps", ["fields": ["name"]]])["subscribe"] == "keeps")
        let idleRoot = String(cString: realpath(idle.path, nil))
        #expect(service.call(["watch", .string(idleRoot)])["watch"]?.text == idleRoot)
        #expect(eventually { !(service.call(["watch-list"])["roots"]?.elements ?? []).contains(.string(idleRoot)) })
        #expect(service.call(["watch-list"])["roots"] == [.string(service.root)])
    }

    @Test func deletingTheWatchCancelsEverySubscription() throws {
        let service = try ServiceRoot()
        service.watch()
        let client = subscriber(service)
        for name in ["one", "two"] {
            #expect(client.call(["subscribe", .string(service.root), .string(name), ["fields": ["name"]]])["subscribe"] == .string(name))
        }
        #expect(client.call(["watch-del", .string(service.root)])["watch-del"] == .bool(true))
        for name in ["one", "two"] {
            let cancelled = client.take { $0["subscription"] == .string(name) && $0["canceled"] == .bool(true) }?.last
            #expect(cancelled?["root"]?.text == service.root)
        }
    }
}

/// What a subscription does when its client reads nothing, and while
/// version control rewrites the tree.
@Suite struct SubscriptionFlowTests {
    @Test func aClientThatReadsNothingIsCutOffAndTheOthersGoOn() throws {
        let service = try ServiceRoot(queueLimit: 64 << 10)
        service.watch()
        let slow = service.running.connect()
        // Every cheap field: each change makes a large result, so few
        // changes fill the kernel's buffers and the bound (a short storm
        // for the tests running beside this one).
        let fields: [WatchmanValue] = ["name", "exists", "new", "type", "size", "mode", "uid", "gid", "ino", "dev", "nlink",
                                       "mtime", "mtime_ms", "mtime_us", "mtime_ns", "mtime_f",
                                       "ctime", "ctime_ms", "ctime_us", "ctime_ns", "ctime_f", "oclock", "cclock"]
        slow.send(["subscribe", .string(service.root), "slow", ["fields": .array(fields)]])
        let reader = SubscriberSocket(service.running.connect())
        _ = reader.call(["subscribe", .string(service.root), "fast", ["fields": ["name"]]])
        var round = 0
        let cutOff = eventually(.seconds(120)) {
            round += 1
            let prefix = String(repeating: "n", count: 100) + "-\(round)-"
            for index in 0..<200 { service.write(prefix + "\(index)") }
            guard reader.take("fast", listing: prefix + "199") != nil else { return false }
            let listed = reader.call(["debug-get-subscriptions", .string(service.root)])["subscribers"]?.elements ?? []
            return !listed.contains { $0["info"]?["name"] == "slow" }
        }
        #expect(cutOff, "the slow client was never cut off")
        var cancelled: WatchmanValue?
        while cancelled == nil, let (value, _) = slow.receive() {
            if value["canceled"] == .bool(true) { cancelled = value }
        }
        #expect(cancelled?["subscription"]?.text == "slow")
        service.write("after")
        #expect(reader.take("fast", listing: "after") != nil)
    }

    @Test func resultsWaitWhileAVersionControlLockIsHeld() throws {
        let service = try ServiceRoot()
        service.mkdir(".hg")
        service.watch()
        let client = SubscriberSocket(service.running.connect())
        _ = client.call(["subscribe", .string(service.root), "held", ["fields": ["name"], "expression": ["type", "f"]]])
        _ = client.call(["subscribe", .string(service.root), "witness", ["fields": ["name"], "defer_vcs": false]])
        _ = client.take { $0["subscription"] == "held" && $0["files"] != nil }
        service.write(".hg/wlock")
        _ = client.take("witness", listing: ".hg/wlock")
        service.write("during")
        let during = client.take("witness", listing: "during") ?? []
        #expect(!during.contains { $0["subscription"] == "held" })
        service.remove(".hg/wlock")
        let after = client.take("held", listing: "during")?.last
        #expect(after != nil)
    }
}
