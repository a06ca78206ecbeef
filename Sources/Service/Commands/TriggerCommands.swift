import Dispatch
import Signals
import WatchmanProtocol

/// `trigger`, `trigger-list` and `trigger-del` (`docs/cmd/trigger.md`):
/// commands run for matching changes, one instance at a time, through
/// rwatch's process group owner. They hang off each root's broadcast
/// (after its settle, held while version control works) and persist in
/// the state file; at start-up the roots it names are watched again and
/// their triggers restored. On shutdown every running command is stopped
/// and waited for before the roots are let go.
public struct TriggerCommands: ServiceComponent {
    let roots: RootTable
    let registry: SubscriptionRegistry
    let store = Locked<TriggerStore?>(nil)

    /// Triggers on the roots of `subscriptions` (which shares its broadcasts).
    public init(_ subscriptions: SubscriptionCommands) {
        roots = subscriptions.roots
        registry = subscriptions.registry
    }

    public func register(in table: inout CommandTable) {
        let commands = self
        table.register("trigger", ownerOnly: true) { request, context in try commands.trigger(request, context) }
        table.register("trigger-list") { request, _ in
            let root = try RootCommands.root(request, commands.roots, count: 1, usage: "wrong number of arguments")
            let triggers = commands.registry.existingBroadcast(for: root)?.triggers ?? []
            return ["triggers": .array(triggers.map(\.spec.definition))]
        }
        table.register("trigger-del", ownerOnly: true) { request, context in
            let root = try RootCommands.root(request, commands.roots, count: 2, usage: "wrong number of arguments")
            guard let name = request.arguments[1].text else { throw CommandError("expected 2nd parameter to be trigger name") }
            let removed = commands.registry.existingBroadcast(for: root)?.removeTrigger(named: name)
            if removed != nil { commands.save(context.server) }
            return ["deleted": .bool(removed != nil), "trigger": .string(name)]
        }
    }

    /// `["trigger", ROOT, {…}]` or the positional form: created, replaced
    /// (a different definition under that name: it starts over, on every
    /// file), or already defined (the same definition: left running).
    func trigger(_ request: CommandRequest, _ context: CommandContext) throws -> WatchmanValue {
        guard request.arguments.count >= 2 else { throw CommandError("not enough arguments") }
        let root = try RootCommands.root(request, roots, usage: "not enough arguments")
        let spec = try TriggerSpec(parsing: request.arguments.dropFirst())
        let disposition = try install(spec, on: root, server: context.server)
        if disposition != "already_defined" { save(context.server) }
        return ["disposition": .string(disposition), "triggerid": .string(spec.name)]
    }

    private func install(_ spec: TriggerSpec, on root: Root, server: WatchmanServer) throws -> String {
        let broadcast = registry.broadcast(for: root, server: server)
        if let existing = broadcast.triggers.first(where: { $0.name == spec.name }), existing.spec.definition == spec.definition {
            return "already_defined"
        }
        let trigger = Trigger(spec: spec, root: root, socketPath: server.configuration.sockname.string, log: server.log)
        let (added, replaced) = broadcast.add(trigger)
        guard added else { throw CommandError(root.unavailableReason ?? "root was cancelled") }
        return replaced == nil ? "created" : "replaced"
    }

    /// Writes every root's triggers to the state file.
    private func save(_ server: WatchmanServer) {
        guard let store = store.withLock({ $0 }) else { return }
        let entries = registry.allBroadcasts.filter(\.isLive).map { broadcast in
            TriggerStore.Entry(path: broadcast.root.path, triggers: broadcast.triggers.map(\.spec.definition))
        }
        store.save(entries) { server.log.log(.error, $0) }
    }

    /// Reads the state file, then watches its roots again and restores
    /// their triggers, off the start-up path (a crawl takes a while).
    public func serverStarted(_ server: WatchmanServer) {
        let store = TriggerStore(path: server.configuration.statefile, version: server.configuration.version)
        self.store.withLock { $0 = store }
        registry.onBroadcastFinished { _ in self.save(server) }
        let entries = store.load { server.log.log(.error, $0) }
        guard !entries.isEmpty else { return }
        // On a queue of its own, not the shared pool: the restore waits for
        // each root's crawl, and a pool whose threads are all busy (waiting
        // themselves) would hold it back, root and triggers unrestored.
        DispatchQueue(label: "rwatch-serve-restore").async { restore(entries, server) }
    }

    private func restore(_ entries: [TriggerStore.Entry], _ server: WatchmanServer) {
        for entry in entries {
            let problem = { (error: any Error) in
                server.log.log(.error, "cannot restore a trigger of \(RootTable.text(entry.path)): \(error)")
            }
            let root: Root
            do { root = try roots.watch(entry.path) } catch { problem(error); continue }
            for definition in entry.triggers {
                do { _ = try install(try TriggerSpec(parsing: [definition]), on: root, server: server) } catch { problem(error) }
            }
        }
    }

    /// Stops every running trigger command and waits until each is gone,
    /// before the roots are let go (which would otherwise save none).
    public func serverStopping(_ server: WatchmanServer) {
        store.withLock { $0?.freeze() }
        let handles = registry.allBroadcasts.flatMap(\.triggers).compactMap { $0.remove() }
        for handle in handles { handle.waitUntilGone() }
    }
}
