/// A part of the service: the commands it answers, and what it does when
/// the service starts and stops. `rwatch serve` is the server's own
/// commands (`ServerCommands`) plus the roots' (watch, query, …).
public protocol ServiceComponent: Sendable {
    /// Registers this part's commands and capabilities.
    func register(in table: inout CommandTable)
    /// Once the socket listens, before the first client is served: restore
    /// what the state file holds, start what runs in the background.
    func serverStarted(_ server: WatchmanServer)
    /// Once, when the service stops, after its clients were let go: stop
    /// watching, stop children, save state.
    func serverStopping(_ server: WatchmanServer)
}

extension ServiceComponent {
    public func serverStarted(_ server: WatchmanServer) {}
    public func serverStopping(_ server: WatchmanServer) {}
}

extension WatchmanServer {
    /// Every part of `rwatch serve`, in the order they register.
    public static func standardComponents() -> [any ServiceComponent] {
        let roots = RootCommands()
        let subscriptions = SubscriptionCommands(roots)
        // Triggers stop (their commands waited for) before the roots are let go.
        return [ServerCommands(), TriggerCommands(subscriptions), subscriptions, roots]
    }
}
