import WatchmanProtocol

/// The query object of a `subscribe` command, parsed: a query (its
/// `since`, if any, is where the first results start) and how the
/// subscription reacts to states and version control.
struct SubscriptionSpec: Sendable {
    var query: QuerySpec
    var policy: SubscriptionPolicy
    /// The object as the client sent it (`debug-get-subscriptions` shows it).
    var definition: WatchmanValue
    /// The first result syncs as a query does (`sync_timeout`), so what
    /// was written before the `subscribe` is in it; settles need not.
    var initialSyncTimeout: Int64

    /// Parses `value`; errors read as watchman's.
    init(parsing value: WatchmanValue) throws(CommandError) {
        do {
            query = try QuerySpec(parsing: value)
        } catch {
            throw CommandError(error.description)
        }
        definition = value
        policy = SubscriptionPolicy(deferred: try Self.names(value, "defer"), dropped: try Self.names(value, "drop"))
        if let defersVCS = value["defer_vcs"] {
            guard let flag = defersVCS.boolean else { throw CommandError("defer_vcs must be boolean") }
            policy.defersVCS = flag
        }
        // Later results come at settles, which follow what the watcher saw.
        initialSyncTimeout = query.syncTimeout
        query.syncTimeout = 0
        query.lockTimeout = 100
    }

    /// The state names of `defer` or `drop`.
    private static func names(_ value: WatchmanValue, _ key: String) throws(CommandError) -> Set<String> {
        guard let list = value[key] else { return [] }
        guard let elements = list.elements else { throw CommandError("\(key) field must be an array of strings") }
        var names: Set<String> = []
        for element in elements {
            guard let name = element.text else { throw CommandError("\(key) field must be an array of strings") }
            names.insert(name)
        }
        return names
    }
}
