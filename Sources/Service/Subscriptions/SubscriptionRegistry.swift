import Dispatch
import Signals
import WatchmanProtocol

/// Every root's broadcast, and what each client has subscribed to and
/// asserted: what goes when the client goes.
///
/// A subscription name is the client's own (two clients may use one
/// name); a state is the client's on one root.
final class SubscriptionRegistry: Sendable {
    struct StateKey: Hashable, Sendable {
        var root: [UInt8]
        var name: String
    }

    struct Session: Sendable {
        var subscriptions: [String: Subscription] = [:]
        var states: [StateKey: (broadcast: RootBroadcast, id: Int)] = [:]
    }

    private let broadcasts = Locked<[ObjectIdentifier: RootBroadcast]>([:])
    private let sessions = Locked<[Int: Session]>([:])
    /// Told when a root's broadcast ends (its root was let go).
    private let finishObservers = Locked<[@Sendable (RootBroadcast) -> Void]>([])

    init() {}

    // MARK: Broadcasts

    /// `root`'s broadcast, started on first use.
    func broadcast(for root: Root, server: WatchmanServer) -> RootBroadcast {
        let key = ObjectIdentifier(root)
        let (broadcast, created) = broadcasts.withLock { broadcasts -> (RootBroadcast, Bool) in
            if let existing = broadcasts[key] { return (existing, false) }
            let made = RootBroadcast(root: root, version: server.configuration.version, log: server.log) { [weak self] finished in
                guard let self else { return }
                self.broadcasts.withLock { if $0[key] === finished { $0[key] = nil } }
                for observer in self.finishObservers.withLock({ $0 }) { observer(finished) }
            }
            broadcasts[key] = made
            return (made, true)
        }
        if created { broadcast.start() }
        return broadcast
    }

    /// Every live broadcast.
    var allBroadcasts: [RootBroadcast] {
        broadcasts.withLock { Array($0.values) }
    }

    /// Calls `body` each time a broadcast ends (after it left the registry).
    func onBroadcastFinished(_ body: @escaping @Sendable (RootBroadcast) -> Void) {
        finishObservers.withLock { $0.append(body) }
    }

    /// `root`'s broadcast if it has one.
    func existingBroadcast(for root: Root) -> RootBroadcast? {
        broadcasts.withLock { $0[ObjectIdentifier(root)] }
    }

    // MARK: Subscriptions

    /// The client's live subscription called `name`.
    func subscription(named name: String, of client: ServiceClient) -> Subscription? {
        sessions.withLock { $0[client.id]?.subscriptions[name] }.flatMap { $0.isCancelled ? nil : $0 }
    }

    /// The client's live subscriptions, by name.
    func subscriptions(of client: ServiceClient) -> [Subscription] {
        (sessions.withLock { $0[client.id]?.subscriptions.values.map { $0 } } ?? []).filter { !$0.isCancelled }
            .sorted { $0.name < $1.name }
    }

    /// Records `subscription` under its name; returns the one it replaces.
    func record(_ subscription: Subscription) -> Subscription? {
        let client = subscription.client
        let replaced = withSession(of: client) { session in
            defer { session.subscriptions[subscription.name] = subscription }
            return session.subscriptions[subscription.name]
        }
        return replaced.flatMap { $0.isCancelled ? nil : $0 }
    }

    /// Forgets the client's subscription `name`; returns it when it was live.
    func forget(_ name: String, of client: ServiceClient) -> Subscription? {
        let removed = sessions.withLock { $0[client.id]?.subscriptions.removeValue(forKey: name) }
        return removed.flatMap { $0.isCancelled ? nil : $0 }
    }

    // MARK: States

    /// The client's assertion of `key`, if it made one.
    func assertion(_ key: StateKey, of client: ServiceClient) -> (broadcast: RootBroadcast, id: Int)? {
        sessions.withLock { $0[client.id]?.states[key] }
    }

    func recordAssertion(_ key: StateKey, broadcast: RootBroadcast, id: Int, of client: ServiceClient) {
        withSession(of: client) { $0.states[key] = (broadcast, id) }
    }

    func forgetAssertion(_ key: StateKey, of client: ServiceClient) {
        _ = sessions.withLock { $0[client.id]?.states.removeValue(forKey: key) }
    }

    // MARK: Clients

    /// Runs `body` on the client's session, making it (and arranging for
    /// its end) on first use.
    @discardableResult
    private func withSession<Result>(of client: ServiceClient, _ body: (inout Session) -> Result) -> Result {
        let (result, made) = sessions.withLock { sessions -> (Result, Bool) in
            let made = sessions[client.id] == nil
            var session = sessions[client.id] ?? Session()
            let result = body(&session)
            sessions[client.id] = session
            return (result, made)
        }
        if made { client.onClose { [weak self] in self?.closed(client) } }
        return result
    }

    /// The client went away: its subscriptions end, the states it holds
    /// are left (`abandoned`).
    private func closed(_ client: ServiceClient) {
        guard let session = sessions.withLock({ $0.removeValue(forKey: client.id) }) else { return }
        for subscription in session.subscriptions.values {
            existingBroadcast(for: subscription.root)?.remove(subscription)
        }
        for (broadcast, id) in session.states.values {
            broadcast.queue.async { broadcast.left(id, metadata: nil, abandoned: true) }
        }
    }
}
