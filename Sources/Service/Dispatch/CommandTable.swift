import WatchmanProtocol

/// What a handler is given: the request taken apart, and who asked.
///
/// Runs on a worker thread of its own: it may block (a `sync_timeout`
/// waiting for a cookie) and only this client's later requests wait for
/// it. One registered with `answersOnLoop` is first run on the socket
/// loop (`context.onLoop`), where it must not wait: it throws `WouldWait`
/// instead, and runs again on a worker. Returns the reply, an object (the
/// service adds `version` when the handler did not), or throws
/// `CommandError`.
public typealias CommandHandler = @Sendable (_ request: CommandRequest, _ context: CommandContext) throws -> WatchmanValue

/// Every command the service answers, by name, with its handler; and every
/// capability it announces (`cmd-NAME` for each command, plus what
/// `addCapabilities` names: terms, fields, features).
///
/// Built once before the service starts, read-only afterwards:
///
///     var table = CommandTable()
///     table.register("clock") { request, context in
///         guard let root = request.arguments.first?.stringBytes else {
///             throw CommandError("wrong number of arguments to 'clock'")
///         }
///         return ["clock": .string(try clock(of: root))]
///     }
///     table.addCapabilities(["clock-sync-timeout"])
public struct CommandTable: Sendable {
    private var handlers: [String: CommandHandler] = [:]
    private var onLoop: Set<String> = []
    private var ownerOnly: Set<String> = []
    private var names: Set<String> = []

    public init() {}

    /// Registers `handler` for the command `name`, and its capability
    /// `cmd-NAME`. A second registration of a name replaces the first.
    /// With `answersOnLoop`, the socket loop runs it first (saving the
    /// hand-over to a worker and back, most of a small request's time):
    /// it must then answer at once or throw `WouldWait`. With `ownerOnly`,
    /// a client that is not the owner (`ServiceClient.isOwner`) gets an
    /// error instead: for commands that change the service.
    public mutating func register(_ name: String, answersOnLoop: Bool = false, ownerOnly: Bool = false,
                                  _ handler: @escaping CommandHandler) {
        handlers[name] = handler
        if answersOnLoop { onLoop.insert(name) } else { onLoop.remove(name) }
        if ownerOnly { self.ownerOnly.insert(name) } else { self.ownerOnly.remove(name) }
        names.insert("cmd-" + name)
    }

    /// Whether only the owner may run `name`.
    public func isOwnerOnly(_ name: String) -> Bool {
        ownerOnly.contains(name)
    }

    /// Whether `name`'s handler is tried on the socket loop first.
    public func answersOnLoop(_ name: String) -> Bool {
        onLoop.contains(name)
    }

    /// Announces capabilities that are no command (`term-match`,
    /// `field-size`, `relative_root`, `bser-v2`, …).
    public mutating func addCapabilities(_ capabilities: some Sequence<String>) {
        names.formUnion(capabilities)
    }

    /// The handler for `name`, if one is registered.
    public func handler(for name: String) -> CommandHandler? {
        handlers[name]
    }

    /// Every capability, sorted (watchman leaves the order unspecified).
    public var capabilities: [String] { names.sorted() }

    /// Whether `name` is a capability this service has.
    public func supports(_ name: String) -> Bool { names.contains(name) }
}

/// One request: `["query", "/root", {…}]` is the name `query` and the
/// arguments `["/root", {…}]`.
public struct CommandRequest: Sendable {
    /// The command's name (element 0).
    public let name: String
    /// The elements after the name, as sent (strings of either kind).
    public let arguments: [WatchmanValue]

    public init(name: String, arguments: [WatchmanValue]) {
        self.name = name
        self.arguments = arguments
    }

    /// The whole request as the client sent it: `[name, arguments…]`.
    public var value: WatchmanValue { .array([.string(name)] + arguments) }
}

/// Thrown by a handler on the socket loop (`CommandContext.onLoop`) that
/// would wait or run long there: it runs again on a worker, from the
/// start, so it must have changed nothing before throwing (a sync moving
/// the clock aside, which any sync may do).
public struct WouldWait: Error, Sendable {
    public init() {}
}

/// An error reply: `{"version": …, "error": message}`, plus `fields` when
/// a command answers more beside its error (watchman's `version` keeps
/// `capabilities`). The message is the client-visible text: where clients
/// test for watchman's wording, use watchman's.
public struct CommandError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// Other keys of the reply, in order, after `version` and before `error`.
    public var fields: [(key: String, value: WatchmanValue)]

    public init(_ message: String, fields: [(key: String, value: WatchmanValue)] = []) {
        self.message = message
        self.fields = fields
    }

    /// Watchman's wording for a request it could not validate (an unknown
    /// command, a bad argument list): its clients match on this prefix.
    public static func validation(_ message: String) -> CommandError {
        CommandError("watchman::CommandValidationError: failed to validate command: " + message)
    }

    /// The answer to a client that is not the owner (`ServiceClient.isOwner`)
    /// asking for what only the owner may do.
    public static func notOwner(_ what: String) -> CommandError {
        CommandError("permission denied: only the owner of this service may \(what)")
    }

    /// Watchman's wording for a query it could not parse.
    public static func queryParse(_ message: String) -> CommandError {
        CommandError("watchman::QueryParseError: failed to parse query: " + message)
    }

    public var description: String { message }
}
