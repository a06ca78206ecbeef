import WatchmanProtocol

extension SubscriptionCommands {
    /// What `state-enter` and `state-leave` are given: a name, or an
    /// object with `name`, `metadata` and `sync_timeout` (default 60 s).
    struct StateArgument {
        var name: String
        var metadata: WatchmanValue?
        var syncTimeout: Int64 = QuerySpec.defaultSyncTimeout

        init(_ request: CommandRequest) throws(CommandError) {
            guard request.arguments.count == 2 else {
                throw CommandError("invalid number of arguments, expected 3, got \(request.arguments.count + 1)")
            }
            let argument = request.arguments[1]
            if let name = argument.text {
                self.name = name
                return
            }
            guard case .object = argument else { throw CommandError("expected a state name or an object") }
            guard let value = argument["name"] else { throw CommandError("key 'name' is not present in this json object") }
            guard let name = value.text else { throw CommandError("'name' must be a string") }
            self.name = name
            metadata = argument["metadata"]
            if let timeout = argument["sync_timeout"] {
                guard let milliseconds = timeout.integer else { throw CommandError("sync_timeout must be an integer") }
                guard milliseconds >= 0 else { throw CommandError("sync_timeout must be >= 0") }
                syncTimeout = milliseconds
            }
        }
    }

    /// `["state-enter", ROOT, STATE]`: syncs (so that what changed before
    /// is before the state), asserts the state, replies, then tells every
    /// subscriber of the root (`state-enter`, the clock, the metadata).
    /// Subscriptions that defer for it hold their results until it is
    /// left; those that drop it discard them. A sync that times out is an
    /// error, and the state is not entered.
    func enterState(_ request: CommandRequest, _ context: CommandContext) throws -> WatchmanValue {
        let root = try RootCommands.root(request, roots, usage: "invalid number of arguments, expected 3, got \(request.arguments.count + 1)")
        let argument = try StateArgument(request)
        let key = SubscriptionRegistry.StateKey(root: root.path, name: argument.name)
        if registry.assertion(key, of: context.client) != nil { throw CommandError("state \(argument.name) is already asserted") }
        let broadcast = registry.broadcast(for: root, server: context.server)
        let id = try broadcast.enter(argument.name, client: context.client.id)
        registry.recordAssertion(key, broadcast: broadcast, id: id, of: context.client)
        do {
            if argument.syncTimeout > 0 { try root.sync(timeout: .milliseconds(argument.syncTimeout)) }
        } catch {
            broadcast.abandonEnter(id)
            registry.forgetAssertion(key, of: context.client)
            context.server.log.log(.error, "state-enter sync failed: \(error)")
            throw error
        }
        if broadcast.asserted(id, metadata: argument.metadata) {
            context.afterReply { broadcast.queue.sync { broadcast.announceEnter(argument.name, metadata: argument.metadata) } }
        }
        return ["root": .bytes(root.path), "state-enter": .string(argument.name)]
    }

    /// `["state-leave", ROOT, STATE]`: syncs, replies, then tells every
    /// subscriber (`state-leave`, the clock, the metadata) and lets what
    /// the state held go (dropped results move on to now). A state is
    /// also left, `abandoned`, when the client that entered it goes away.
    func leaveState(_ request: CommandRequest, _ context: CommandContext) throws -> WatchmanValue {
        let root = try RootCommands.root(request, roots, usage: "invalid number of arguments, expected 3, got \(request.arguments.count + 1)")
        let argument = try StateArgument(request)
        let key = SubscriptionRegistry.StateKey(root: root.path, name: argument.name)
        guard let (broadcast, id) = registry.assertion(key, of: context.client) else {
            throw CommandError("state \(argument.name) is not asserted")
        }
        broadcast.leaving(id)
        do {
            if argument.syncTimeout > 0 { try root.sync(timeout: .milliseconds(argument.syncTimeout)) }
        } catch {
            broadcast.stayed(id)
            context.server.log.log(.error, "state-leave sync failed: \(error)")
            throw error
        }
        registry.forgetAssertion(key, of: context.client)
        context.afterReply { broadcast.queue.sync { broadcast.left(id, metadata: argument.metadata, abandoned: false) } }
        return ["root": .bytes(root.path), "state-leave": .string(argument.name)]
    }
}
