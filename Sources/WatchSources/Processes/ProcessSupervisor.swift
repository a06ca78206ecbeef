import Dispatch
import Signals
#if canImport(Glibc)
import Glibc
#endif

/// The registry of every live process group started by `ProcessSource`, so
/// that none outlives rwatch.
public enum ProcessSupervisor {
    private struct Registry {
        var groups: [pid_t: ProcessGroup] = [:]
        /// Set once a stop signal arrived: no new spawn starts, and a
        /// group that registers from then on is stopped at once.
        var closing = false
        /// Spawns between `beginSpawn` and `register`/`endSpawn`: not in
        /// `groups` yet, but `stopAll` must wait for them all the same.
        var spawning = 0
    }

    private static let registry = Locked(Registry())
    private static let handlers = Locked<[any DispatchSourceSignal]>([])
    private static let cleanups = Locked<[@Sendable () -> Void]>([])

    /// On SIGINT, SIGTERM or SIGHUP: stop every live child group started by
    /// `ProcessSource` (each gets its stop signal, grace period, then
    /// SIGKILL), then exit with 128+N. Call once, early; later calls do nothing.
    public static func installSignalHandlers() {
        handlers.withLock { sources in
            guard sources.isEmpty else { return }
            let queue = DispatchQueue(label: "rwatch.supervisor.signals")
            for number in [SIGINT, SIGTERM, SIGHUP] {
                // The default action would kill rwatch before it can clean up;
                // the dispatch source still sees the signal while it is ignored.
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    registry.withLock { $0.closing = true }
                    stopAll()
                    for cleanup in cleanups.withLock({ $0 }) { cleanup() }
                    exit(128 + number)
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Registers work to do when a stop signal ends rwatch, after every
    /// child group has stopped and just before exiting: removing temporary
    /// files no child uses any more, say.
    public static func onStop(_ cleanup: @escaping @Sendable () -> Void) {
        cleanups.withLock { $0.append(cleanup) }
    }

    /// Stops every live child group now, blocking until each is reaped
    /// (after at most its grace period and a SIGKILL). Groups that register
    /// meanwhile (a spawn that was under way) are stopped and waited for too.
    public static func stopAll() {
        var pause: UInt32 = 200
        while true {
            let (groups, spawning) = registry.withLock { (Array($0.groups.values), $0.spawning) }
            if groups.isEmpty && spawning == 0 { return }
            for group in groups { group.stop() }
            for group in groups { group.waitUntilGone() }
            if groups.isEmpty {
                // A spawn is between posix_spawn and register: it is quick.
                usleep(pause)
                pause = min(pause * 2, 10_000)
            }
        }
    }

    /// How many groups are live now (spawned and not yet reaped).
    public static var liveGroupCount: Int { registry.withLock { $0.groups.count } }

    /// Called before spawning: false once rwatch is stopping (spawn nothing
    /// then). Every true must be followed by `register` or `endSpawn`.
    static func beginSpawn() -> Bool {
        registry.withLock { registry in
            guard !registry.closing else { return false }
            registry.spawning += 1
            return true
        }
    }

    /// A spawn begun with `beginSpawn` failed: nothing to register.
    static func endSpawn() {
        registry.withLock { $0.spawning -= 1 }
    }

    /// Registers a spawned group (ending its `beginSpawn`).
    static func register(_ group: ProcessGroup) {
        let closing = registry.withLock { registry in
            registry.groups[group.id] = group
            registry.spawning -= 1
            return registry.closing
        }
        if closing { group.stop() }
    }

    static func unregister(_ group: ProcessGroup) {
        registry.withLock { registry in
            if registry.groups[group.id] === group { registry.groups[group.id] = nil }
        }
    }
}
