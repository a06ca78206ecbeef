import CGlibcShims
import WatchmanProtocol

/// The commands about roots: watching (`watch`, `watch-project`,
/// `watch-list`, `watch-del`, `watch-del-all`, `get-config`), clocks
/// (`clock`), queries (`query`, `since`, `find`) and watchman's debug
/// commands for them (`debug-ageout`, `debug-recrawl`, `debug-root-status`,
/// `debug-show-cursors`, `debug-contenthash`). Error texts are
/// watchman's where its clients and tests look for them.
public struct RootCommands: ServiceComponent {
    let roots: RootTable
    /// How often idle roots are looked for and deleted entries aged out.
    let housekeeping: Duration

    /// `environment` names the global configuration (`WATCHMAN_CONFIG_FILE`);
    /// `housekeeping` is how often roots are looked after (tests shorten it).
    public init(environment: [String: String] = ServiceConfiguration.processEnvironment,
                housekeeping: Duration = .seconds(10)) {
        roots = RootTable(environment: environment)
        self.housekeeping = housekeeping
    }

    public func register(in table: inout CommandTable) {
        let roots = roots
        // Others than the owner may name a root already watched, not add one.
        table.register("watch") { request, context in try Self.watch(request, roots, mayCreate: context.client.isOwner) }
        table.register("watch-project") { request, context in
            try Self.watchProject(request, roots, mayCreate: context.client.isOwner)
        }
        table.register("watch-list") { _, _ in ["roots": .array(roots.all.map { .bytes($0.path) })] }
        table.register("watch-del", ownerOnly: true) { request, _ in
            let root = try Self.root(request, roots, count: 1, usage: "wrong number of arguments to 'watch-del'")
            return ["watch-del": .bool(roots.delete(root)), "root": .bytes(root.path)]
        }
        table.register("watch-del-all", ownerOnly: true) { _, _ in ["roots": .array(roots.deleteAll().map { .bytes($0) })] }
        table.register("get-config") { request, _ in
            let root = try Self.root(request, roots, count: 1, usage: "wrong number of arguments for 'get-config'")
            return ["config": root.state.withLock { $0.configuration.local } ?? .object([])]
        }
        // Tried on the loop: a small query of a caught-up root is answered
        // there (`Root.queryWithoutWaiting`), any other on a worker.
        table.register("clock", answersOnLoop: true) { request, context in try Self.clock(request, context, roots) }
        table.register("query", answersOnLoop: true) { request, context in try Self.query(request, context, roots) }
        table.register("since", answersOnLoop: true) { request, context in try Self.since(request, context, roots) }
        table.register("find") { request, context in try Self.find(request, context, roots) }
        registerDebugCommands(in: &table)
        table.addCapabilities(Self.capabilities)
        // Source-control-aware `since` (`Root+SCM.swift`), on git working copies only.
        table.addCapabilities(["scm-since", "scm-git"])
    }

    public func serverStarted(_ server: WatchmanServer) {
        Self.tuneAllocator()
        roots.startHousekeeping(every: housekeeping)
    }

    /// glibc's allocator, for a long-lived process whose tables grow in
    /// large blocks: blocks of 64 KiB and more get their own mappings,
    /// given back when freed (the threshold stays put, instead of rising
    /// to the largest block freed and leaving later ones in the heap), and
    /// the worker threads share two arenas rather than one each.
    static func tuneAllocator() {
        _ = CGlibcShims_tune_malloc(64 * 1024, 2)
    }

    public func serverStopping(_ server: WatchmanServer) {
        roots.stopHousekeeping()
        _ = roots.deleteAll()
    }

    /// Features, terms and fields, as watchman names their capabilities.
    static let capabilities: [String] = {
        let features = ["relative_root", "wildmatch", "wildmatch-multislash", "clock-sync-timeout", "dedup_results",
                        "glob_generator", "suffix-set"]
        let terms = ["allof", "anyof", "not", "true", "false", "exists", "empty", "type", "suffix", "size", "match", "imatch",
                     "name", "iname", "dirname", "idirname", "since", "pcre", "ipcre"]
        return features + terms.map { "term-" + $0 } + FieldList.Field.allCases.map { "field-" + $0.rawValue }
    }()

    // MARK: Arguments

    /// The root named by the first argument, with exactly `count` arguments.
    /// On the loop (`onLoop`), only a root named exactly by its path is
    /// found, without `realpath` (a file-system call that may hang on a
    /// network mount); any other argument throws `WouldWait`, to be
    /// resolved on a worker.
    static func root(_ request: CommandRequest, _ roots: RootTable, count: Int? = nil, onLoop: Bool = false,
                     usage: String) throws -> Root {
        if let count, request.arguments.count != count { throw CommandError(usage) }
        guard let first = request.arguments.first else { throw CommandError(usage) }
        guard let path = first.stringBytes else {
            throw CommandError.validation("second argument must be a string expressing the path to the watch")
        }
        let root: Root
        if onLoop {
            guard let found = roots.watchedAsGiven(path) else { throw WouldWait() }
            root = found
        } else {
            root = try roots.resolve(path)
        }
        root.touch()
        return root
    }

    static func watch(_ request: CommandRequest, _ roots: RootTable, mayCreate: Bool) throws -> WatchmanValue {
        guard request.arguments.count == 1 else { throw CommandError("wrong number of arguments to 'watch'") }
        guard let path = request.arguments[0].stringBytes else {
            throw CommandError.validation("second argument must be a string expressing the path to the watch")
        }
        let root = try roots.watch(path, mayCreate: mayCreate)
        return reply(root, [("watch", .bytes(root.path)), ("watcher", "inotify")])
    }

    static func watchProject(_ request: CommandRequest, _ roots: RootTable, mayCreate: Bool) throws -> WatchmanValue {
        guard request.arguments.count == 1 else { throw CommandError("wrong number of arguments to 'watch-project'") }
        guard let path = request.arguments[0].stringBytes else {
            throw CommandError.validation("second argument must be a string")
        }
        let (root, relative) = try roots.watchProject(path, mayCreate: mayCreate)
        var members: [(key: String, value: WatchmanValue)] = [("watch", .bytes(root.path)), ("watcher", "inotify")]
        if let relative { members.append(("relative_path", .bytes(relative))) }
        return reply(root, members)
    }

    /// `members`, then the root's warning if it has one.
    static func reply(_ root: Root, _ members: [(key: String, value: WatchmanValue)]) -> WatchmanValue {
        guard let warning = root.warnings else { return .object(members) }
        return .object(members + [("warning", .string(warning))])
    }

    static func clock(_ request: CommandRequest, _ context: CommandContext, _ roots: RootTable) throws -> WatchmanValue {
        var timeout: Int64 = 0
        if request.arguments.count == 2 {
            let options = request.arguments[1]
            guard case .object = options else { throw CommandError("the third argument to 'clock' must be an optional object") }
            if let value = options["sync_timeout"] {
                guard let milliseconds = value.integer else {
                    throw CommandError("the sync_timeout option passed to 'clock' must be an integer")
                }
                timeout = milliseconds
            }
        } else if request.arguments.count != 1 {
            throw CommandError("wrong number of arguments to 'clock'")
        }
        let root = try Self.root(request, roots, onLoop: context.onLoop, usage: "wrong number of arguments to 'clock'")
        let syncTimeout = Duration.milliseconds(max(0, timeout))
        if context.onLoop {
            guard let clock = try root.clockWithoutWaiting(syncTimeout: syncTimeout) else { throw WouldWait() }
            return ["clock": .string(clock)]
        }
        return ["clock": .string(try root.clock(syncTimeout: syncTimeout))]
    }
}
