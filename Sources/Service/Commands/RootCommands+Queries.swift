import WatchmanProtocol

extension RootCommands {
    /// `["query", ROOT, QUERY]`.
    static func query(_ request: CommandRequest, _ context: CommandContext, _ roots: RootTable) throws -> WatchmanValue {
        guard request.arguments.count == 2 else { throw CommandError("wrong number of arguments for 'query'") }
        let root = try Self.root(request, roots, onLoop: context.onLoop, usage: "wrong number of arguments for 'query'")
        let spec = try QuerySpec(parsing: request.arguments[1])
        return try answer(spec, root, context)
    }

    /// `["since", ROOT, CLOCKSPEC, PATTERN…]`: what changed since the
    /// clockspec, with every field of watchman's legacy list.
    static func since(_ request: CommandRequest, _ context: CommandContext, _ roots: RootTable) throws -> WatchmanValue {
        guard request.arguments.count >= 2 else { throw CommandError("not enough arguments for 'since'") }
        let root = try Self.root(request, roots, onLoop: context.onLoop, usage: "not enough arguments for 'since'")
        guard request.arguments[1].isString else { throw CommandError("expected argument 2 to be a valid clockspec") }
        var query: [(key: String, value: WatchmanValue)] = [("since", request.arguments[1])]
        if let expression = try SimplePatterns.expression(request.arguments.dropFirst(2), firstPosition: 3) {
            query.append(("expression", expression))
        }
        var spec = try QuerySpec(parsing: .object(query))
        spec.fields = .legacy
        return try answer(spec, root, context)
    }

    /// `spec`'s reply from `root`: on the loop only when it needs no wait
    /// (`Root.queryWithoutWaiting`), else `WouldWait`.
    private static func answer(_ spec: QuerySpec, _ root: Root, _ context: CommandContext) throws -> WatchmanValue {
        if context.onLoop {
            guard let reply = try root.queryWithoutWaiting(spec) else { throw WouldWait() }
            logRequest(spec, context)
            return .object(reply)
        }
        logRequest(spec, context)
        return .object(try root.query(spec))
    }

    /// `["find", ROOT, PATTERN…]`: the files matching the patterns (all of
    /// them without any), with every field of watchman's legacy list.
    static func find(_ request: CommandRequest, _ context: CommandContext, _ roots: RootTable) throws -> WatchmanValue {
        guard !request.arguments.isEmpty else { throw CommandError("not enough arguments for 'find'") }
        let root = try Self.root(request, roots, usage: "not enough arguments for 'find'")
        var query: [(key: String, value: WatchmanValue)] = []
        if let expression = try SimplePatterns.expression(request.arguments.dropFirst(), firstPosition: 2) {
            query.append(("expression", expression))
        }
        var spec = try QuerySpec(parsing: .object(query))
        spec.fields = .legacy
        let reply = try root.query(spec)
        return .object(reply.filter { $0.key != "is_fresh_instance" })
    }

    /// A `request_id` goes to the log (debug), as watchman logs it.
    private static func logRequest(_ spec: QuerySpec, _ context: CommandContext) {
        guard let id = spec.requestID else { return }
        context.server.log.log(.debug, "[client=\(context.client.id)] request_id = \(id)")
    }

    func registerDebugCommands(in table: inout CommandTable) {
        let roots = roots
        table.register("debug-ageout", ownerOnly: true) { request, _ in
            let root = try Self.root(request, roots, count: 2, usage: "wrong number of arguments for 'debug-ageout'")
            guard let seconds = request.arguments[1].integer else { throw CommandError("min_age must be a number") }
            root.ageOut(olderThan: seconds)
            return ["ageout": true]
        }
        table.register("debug-recrawl", ownerOnly: true) { request, _ in
            let root = try Self.root(request, roots, count: 1, usage: "wrong number of arguments for 'debug-recrawl'")
            root.requestRecrawl(because: "debug-recrawl")
            return ["recrawl": true]
        }
        table.register("debug-root-status") { request, _ in
            let root = try Self.root(request, roots, count: 1, usage: "wrong number of arguments for 'debug-root-status'")
            return ["root_status": root.status.value]
        }
        table.register("debug-show-cursors") { request, _ in
            let root = try Self.root(request, roots, count: 1, usage: "wrong number of arguments for 'debug-show-cursors'")
            let cursors = root.state.withLock { $0.cursors }.sorted { $0.key < $1.key }
            return ["cursors": .object(cursors.map { (key: $0.key, value: .int(Int64(clamping: $0.value))) })]
        }
        table.register("debug-contenthash") { request, _ in
            let root = try Self.root(request, roots, count: 1, usage: "wrong number of arguments for 'debug-contenthash'")
            let statistics = root.hashes.statistics
            return ["size": .int(Int64(statistics.size)), "cacheHit": .int(Int64(statistics.hits)),
                    "cacheMiss": .int(Int64(statistics.misses)), "cacheStore": .int(Int64(statistics.stores)),
                    "cacheLoad": .int(Int64(statistics.misses))]
        }
    }
}
