import WatchSources
import WatchmanProtocol

/// The commands about the service itself rather than a root: `version`,
/// `list-capabilities`, `get-sockname`, `get-pid`, `log-level`, `log`,
/// `shutdown-server`, `debug-drop-privs`. Texts of errors are watchman's
/// where its clients and tests look for them.
public struct ServerCommands: ServiceComponent {
    public init() {}

    public func register(in table: inout CommandTable) {
        // What needs neither a root nor a wait is answered on the loop.
        table.register("version", answersOnLoop: true, Self.version)
        table.register("list-capabilities", answersOnLoop: true) { _, context in
            ["capabilities": .array(context.server.commands.capabilities.map { .string($0) })]
        }
        table.register("get-sockname", answersOnLoop: true) { _, context in
            let path = WatchmanValue.bytes(context.server.configuration.sockname.bytes)
            return ["sockname": path, "unix_domain": path]
        }
        table.register("get-pid", answersOnLoop: true) { _, context in
            ["pid": .int(Int64(context.server.pid))]
        }
        table.register("log-level", Self.logLevel)
        table.register("log", Self.log)
        table.register("shutdown-server", ownerOnly: true) { _, context in
            context.server.log.log(.error, "shutdown-server was requested, exiting!")
            context.server.requestShutdown()
            return ["shutdown-server": true]
        }
        // This connection goes on as a client that is not the owner would:
        // it may look, not change (what `ownerOnly` commands refuse).
        table.register("debug-drop-privs") { _, context in
            context.client.dropPrivileges()
            return ["owner": false]
        }
    }

    /// `["version", {"required": […], "optional": […]}]`: the version, and
    /// for each capability named whether this service has it; an error
    /// naming the required ones it lacks.
    static func version(_ request: CommandRequest, _ context: CommandContext) throws -> WatchmanValue {
        let server = context.server
        var reply: [(key: String, value: WatchmanValue)] = [
            ("version", .string(server.configuration.version)),
            ("buildinfo", .string(server.configuration.buildinfo)),
        ]
        guard let options = request.arguments.first, case .object = options else { return .object(reply) }
        let optional = (options["optional"]?.elements ?? []).compactMap(\.text)
        let required = (options["required"]?.elements ?? []).compactMap(\.text)
        guard !optional.isEmpty || !required.isEmpty else { return .object(reply) }
        var capabilities: [(key: String, value: WatchmanValue)] = []
        var seen: Set<String> = []
        for name in optional + required where seen.insert(name).inserted {
            capabilities.append((name, .bool(server.commands.supports(name))))
        }
        reply.append(("capabilities", .object(capabilities)))
        let missing = Set(required.filter { !server.commands.supports($0) }).sorted()
        if !missing.isEmpty {
            throw CommandError("client required capabilities [\(missing.joined(separator: ", "))] not supported by this server", fields: Array(reply.dropFirst()))
        }
        return .object(reply)
    }

    /// `["log-level", "debug" | "error" | "off"]`: this client receives the
    /// service's log lines of that level as unilateral `log` PDUs.
    static func logLevel(_ request: CommandRequest, _ context: CommandContext) throws -> WatchmanValue {
        guard request.arguments.count == 1 else { throw CommandError("wrong number of arguments to 'log-level'") }
        guard let label = request.arguments[0].text, let level = ServiceLog.Level(rawValue: label) else {
            throw CommandError("invalid log level for 'log-level'")
        }
        context.server.log.listen(context.client, at: level)
        return ["log_level": request.arguments[0]]
    }

    /// `["log", LEVEL, TEXT]`: writes TEXT to the service's log.
    static func log(_ request: CommandRequest, _ context: CommandContext) throws -> WatchmanValue {
        guard request.arguments.count == 2 else { throw CommandError("wrong number of arguments to 'log'") }
        guard let label = request.arguments[0].text, let level = ServiceLog.Level(rawValue: label) else {
            throw CommandError("invalid log level for 'log'")
        }
        guard let bytes = request.arguments[1].stringBytes else { throw CommandError("invalid text for 'log'") }
        context.server.log.log(level, Quoted.escaped(bytes: bytes))
        return ["logged": true]
    }
}

