import WatchmanProtocol

extension SubscriptionCommands {
    func registerDebugCommands(in table: inout CommandTable) {
        let roots = roots
        let registry = registry
        // Every subscription to the root, whoever made it.
        table.register("debug-get-subscriptions") { request, _ in
            let root = try RootCommands.root(request, roots, count: 1, usage: "wrong number of arguments for 'debug-get-subscriptions'")
            let subscriptions = registry.existingBroadcast(for: root)?.subscriptions ?? []
            let subscribers: [WatchmanValue] = subscriptions.map { subscription in
                ["info": ["name": .string(subscription.name), "client": .string(String(subscription.client.id)),
                          "pid": .int(Int64(subscription.client.peer.pid)), "query": subscription.spec.definition]]
            }
            let listed: [WatchmanValue] = subscriptions.map { subscription in
                ["name": .string(subscription.name), "client_id": .int(Int64(subscription.client.id)), "last_responses": []]
            }
            return ["subscribers": .array(subscribers), "subscriptions": .array(listed)]
        }
        // `{NAME: true | false}`: a paused subscription is evaluated only by a flush.
        table.register("debug-set-subscriptions-paused", ownerOnly: true) { request, context in
            guard request.arguments.count == 1, let pairs = request.arguments[0].pairs else {
                throw CommandError("wrong number of arguments for 'debug-set-subscriptions-paused'")
            }
            var changes: [(Subscription, Bool)] = []
            for (name, value) in pairs {
                guard let subscription = registry.subscription(named: name, of: context.client) else {
                    throw CommandError("this client does not have a subscription named '\(name)'")
                }
                guard let paused = value.boolean else { throw CommandError("new value for subscription '\(name)' not a boolean") }
                changes.append((subscription, paused))
            }
            let paused: [(key: String, value: WatchmanValue)] = changes.map { subscription, paused in
                let old = subscription.progress.withLock { progress -> Bool in
                    defer { progress.paused = paused }
                    return progress.paused
                }
                return (subscription.name, ["old": .bool(old), "new": .bool(paused)])
            }
            return ["paused": .object(paused)]
        }
        // Each state of the root: who holds it and how far its enter or leave has got.
        table.register("debug-get-asserted-states") { request, _ in
            let root = try RootCommands.root(request, roots, count: 1, usage: "wrong number of arguments for 'debug-get-asserted-states'")
            let assertions = registry.existingBroadcast(for: root)?.assertions ?? []
            let states: [WatchmanValue] = assertions.map { ["name": .string($0.name), "state": .string($0.disposition.rawValue)] }
            return ["root": .bytes(root.path), "states": .array(states)]
        }
    }
}
