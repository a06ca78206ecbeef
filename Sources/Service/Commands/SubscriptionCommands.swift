import WatchmanProtocol

/// The commands of subscriptions and states: `subscribe`, `unsubscribe`,
/// `flush-subscriptions`, `state-enter`, `state-leave`, and watchman's
/// debug commands for them (`debug-get-subscriptions`,
/// `debug-set-subscriptions-paused`, `debug-get-asserted-states`).
/// Results and notices go out as unilateral PDUs (`RootBroadcast`).
public struct SubscriptionCommands: ServiceComponent {
    let roots: RootTable
    let registry = SubscriptionRegistry()

    /// Subscriptions to the roots `rootCommands` watches.
    public init(_ rootCommands: RootCommands) {
        roots = rootCommands.roots
    }

    public func register(in table: inout CommandTable) {
        let commands = self
        table.register("subscribe") { request, context in try commands.subscribe(request, context) }
        table.register("unsubscribe") { request, context in try commands.unsubscribe(request, context) }
        table.register("flush-subscriptions") { request, context in try commands.flush(request, context) }
        table.register("state-enter", ownerOnly: true) { request, context in try commands.enterState(request, context) }
        table.register("state-leave", ownerOnly: true) { request, context in try commands.leaveState(request, context) }
        registerDebugCommands(in: &table)
    }

    /// `["subscribe", ROOT, NAME, QUERY]`: the reply (`subscribe`, the
    /// clock of the first results, the asserted states the subscription
    /// defers or drops for), then the first results as a PDU of their own:
    /// every file (a fresh instance) or what changed since `since`.
    func subscribe(_ request: CommandRequest, _ context: CommandContext) throws -> WatchmanValue {
        guard request.arguments.count == 3 else { throw CommandError("wrong number of arguments for subscribe") }
        let root = try RootCommands.root(request, roots, usage: "wrong number of arguments for subscribe")
        guard let name = request.arguments[1].text else { throw CommandError("expected 2nd parameter to be subscription name") }
        let spec = try SubscriptionSpec(parsing: request.arguments[2])
        var warnings: [String] = []
        if registry.subscription(named: name, of: context.client) != nil {
            let message = "subscription name '\(name)' is not unique"
            if root.state.withLock({ $0.configuration.value("enforce_unique_subscription_names") }) == .bool(true) {
                throw CommandError(message)
            }
            context.server.log.log(.error, "clobbering existing subscription '\(name)'")
            warnings.append(message)
        }
        let broadcast = registry.broadcast(for: root, server: context.server)
        let subscription = Subscription(name: name, client: context.client, root: root, spec: spec)
        let initial = try subscription.evaluate(version: context.server.configuration.version, syncTimeout: spec.initialSyncTimeout)
        guard broadcast.add(subscription) else { throw CommandError(root.unavailableReason ?? "root was cancelled") }
        if let replaced = registry.record(subscription) {
            registry.existingBroadcast(for: replaced.root)?.remove(replaced)
        }
        context.afterReply { broadcast.queue.sync { broadcast.begin(subscription, initial: initial) } }
        if let warning = root.warnings { warnings.append(warning) }
        var reply: [(key: String, value: WatchmanValue)] = [
            ("subscribe", .string(name)),
            ("clock", subscription.clock),
            ("asserted-states", .array(broadcast.asserted(for: spec.policy).map { .string($0) })),
        ]
        if !warnings.isEmpty { reply.append(("warning", .string(warnings.joined(separator: "\n")))) }
        return .object(reply)
    }

    /// `["unsubscribe", ROOT, NAME]`.
    func unsubscribe(_ request: CommandRequest, _ context: CommandContext) throws -> WatchmanValue {
        guard request.arguments.count == 2 else { throw CommandError("wrong number of arguments for 'unsubscribe'") }
        _ = try RootCommands.root(request, roots, usage: "wrong number of arguments for 'unsubscribe'")
        guard let name = request.arguments[1].text else { throw CommandError("expected 2nd parameter to be subscription name") }
        let removed = registry.forget(name, of: context.client)
        if let removed { registry.existingBroadcast(for: removed.root)?.remove(removed) }
        return ["unsubscribe": .string(name), "deleted": .bool(removed != nil)]
    }

    /// `["flush-subscriptions", ROOT, {"sync_timeout": MS, "subscriptions": [NAME…]}]`:
    /// syncs, then evaluates the client's subscriptions to the root (those
    /// named, or all) at once, whatever they defer for; their PDUs come
    /// before the reply, which sorts them into `synced`, `no_sync_needed`
    /// and `dropped`.
    func flush(_ request: CommandRequest, _ context: CommandContext) throws -> WatchmanValue {
        let usage = "wrong number of arguments to 'flush-subscriptions'"
        guard request.arguments.count == 2 else { throw CommandError(usage) }
        let options = request.arguments[1]
        guard let timeout = options["sync_timeout"] else { throw CommandError("key 'sync_timeout' is not present in this json object") }
        guard let milliseconds = timeout.integer else { throw CommandError("'sync_timeout' must be an integer") }
        let root = try RootCommands.root(request, roots, usage: usage)
        let subscriptions = try flushed(options["subscriptions"], of: context.client, root: root)
        try root.sync(timeout: .milliseconds(max(0, milliseconds)))
        var outcome = RootBroadcast.FlushOutcome()
        if let broadcast = registry.existingBroadcast(for: root) {
            outcome = broadcast.queue.sync { broadcast.flush(subscriptions) }
        }
        var reply: [(key: String, value: WatchmanValue)] = [
            ("synced", .array(outcome.synced.map { .string($0) })),
            ("no_sync_needed", .array(outcome.noSyncNeeded.map { .string($0) })),
            ("dropped", .array(outcome.dropped.map { .string($0) })),
        ]
        if let warning = root.warnings { reply.append(("warning", .string(warning))) }
        return .object(reply)
    }

    /// The subscriptions a flush names (all of the client's on `root` when none).
    private func flushed(_ names: WatchmanValue?, of client: ServiceClient, root: Root) throws -> [Subscription] {
        guard let names else { return registry.subscriptions(of: client).filter { $0.root === root } }
        let problem = CommandError("expected 'subscriptions' to be an array of subscription names")
        guard let elements = names.elements else { throw problem }
        return try elements.map { element in
            guard let name = element.text else { throw problem }
            guard let subscription = registry.subscription(named: name, of: client) else {
                throw CommandError("this client does not have a subscription named '\(name)'")
            }
            guard subscription.root === root else {
                throw CommandError("subscription '\(name)' is on root '\(RootTable.text(subscription.root.path))' "
                    + "different from command root '\(RootTable.text(root.path))'")
            }
            return subscription
        }
    }
}
