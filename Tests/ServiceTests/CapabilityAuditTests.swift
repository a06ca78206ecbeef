import Testing
import WatchmanProtocol
@testable import Service

/// What the service claims in `version` and `list-capabilities`, each
/// claim audited: a client that sees one uses it without a fallback, so
/// every name below has a test of its behaviour. A claim added without
/// its test, or dropped, fails here first.
@Suite struct CapabilityAuditTests {
    /// Command, where its test lives.
    static let commands: [String: String] = [
        "clock": "RootCommandTests", "debug-ageout": "RootCommandTests", "debug-contenthash": "CapabilityAuditTests",
        "debug-drop-privs": "OwnerTests", "debug-get-asserted-states": "StateTests",
        "debug-get-subscriptions": "SubscriptionTests", "debug-recrawl": "RootCommandTests",
        "debug-root-status": "RootStatusTests", "debug-set-subscriptions-paused": "SubscriptionTests",
        "debug-show-cursors": "RootCommandTests", "find": "RootCommandTests", "flush-subscriptions": "SubscriptionTests",
        "get-config": "RootCommandTests", "get-pid": "ServerTests", "get-sockname": "ServerTests",
        "list-capabilities": "ServerTests", "log": "ServerTests", "log-level": "ServerTests", "query": "RootCommandTests",
        "shutdown-server": "ServerTests", "since": "RootCommandTests", "state-enter": "StateTests",
        "state-leave": "StateTests", "subscribe": "SubscriptionTests", "trigger": "ServiceTriggerTests",
        "trigger-del": "ServiceTriggerTests", "trigger-list": "ServiceTriggerTests", "unsubscribe": "SubscriptionTests",
        "version": "ServerTests", "watch": "RootCommandTests", "watch-del": "RootCommandTests",
        "watch-del-all": "CapabilityAuditTests", "watch-list": "RootCommandTests", "watch-project": "RootCommandTests",
    ]
    /// Feature, where its test lives. No `scm-hg`: source-control-aware
    /// `since` is answered on git working copies only (`SCMQueryTests`).
    static let features: [String: String] = [
        "bser-v2": "ServerTests", "relative_root": "QueryEngineTests", "wildmatch": "QueryEngineTests",
        "wildmatch-multislash": "TermEvaluationTests", "clock-sync-timeout": "RootCommandTests",
        "dedup_results": "QueryOptionTests", "glob_generator": "QueryEngineTests", "suffix-set": "QueryOptionTests",
        "scm-since": "SCMQueryTests", "scm-git": "SCMQueryTests",
    ]
    /// Terms: `QueryEngineTests` and `TermEvaluationTests`.
    static let terms = ["allof", "anyof", "not", "true", "false", "exists", "empty", "type", "suffix", "size", "match",
                        "imatch", "name", "iname", "dirname", "idirname", "since", "pcre", "ipcre"]
    /// Fields: `FieldValueTests`.
    static let fields = ["name", "exists", "new", "type", "size", "mode", "uid", "gid", "ino", "dev", "nlink",
                         "mtime", "mtime_ms", "mtime_us", "mtime_ns", "mtime_f", "ctime", "ctime_ms", "ctime_us", "ctime_ns",
                         "ctime_f", "oclock", "cclock", "symlink_target", "content.sha1hex"]

    @Test func theServiceClaimsExactlyTheAuditedCapabilities() throws {
        let service = try ServiceRoot()
        let claimed = Set(service.call(["list-capabilities"])["capabilities"]?.elements?.compactMap(\.text) ?? [])
        let audited = Set(Self.commands.keys.map { "cmd-" + $0 } + Self.features.keys
                          + Self.terms.map { "term-" + $0 } + Self.fields.map { "field-" + $0 })
        #expect(claimed.subtracting(audited).sorted() == [], "claimed without an audited test")
        #expect(audited.subtracting(claimed).sorted() == [], "audited but no longer claimed")
        let version = service.call(["version", ["optional": ["scm-hg", "scm-git"]]])
        #expect(version["capabilities"] == ["scm-hg": false, "scm-git": true])
    }

    @Test func watchDelAllForgetsEveryRoot() throws {
        let service = try ServiceRoot()
        service.watch()
        let reply = service.call(["watch-del-all"])
        #expect(reply["roots"] == [.string(service.root)])
        #expect(service.call(["watch-list"])["roots"] == [])
    }

    /// A digest asked for twice is read once: the second is a hit.
    @Test func debugContenthashCountsTheDigestCache() throws {
        let service = try ServiceRoot()
        service.write("f", "hello\n")
        service.watch()
        for _ in 0..<2 {
            let files = service.call(["query", .string(service.root), ["fields": ["name", "content.sha1hex"]]])["files"]
            #expect(files == [["name": "f", "content.sha1hex": "f572d396fae9206628714fb2ce00f72e94f2258f"]])
        }
        let counters = service.call(["debug-contenthash", .string(service.root)])
        #expect((counters["size"]?.integer ?? 0) >= 1, "\(counters)")
        #expect((counters["cacheHit"]?.integer ?? 0) >= 1, "\(counters)")
        #expect(counters["cacheMiss"] != nil && counters["cacheStore"] != nil && counters["cacheLoad"] != nil)
    }
}
