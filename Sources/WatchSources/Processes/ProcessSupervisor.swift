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
        /// Set once a stop signal arrived: groups spawned from then on are
        /// stopped at once.
        var closing = false
    }

    private static let registry = Locked(Registry())
    private static let handlers = Locked<[any DispatchSourceSignal]>([])

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
                    exit(128 + number)
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Stops every live child group now, blocking until each is reaped
    /// (after at most its grace period and a SIGKILL).
    public static func stopAll() {
        let groups = registry.withLock { Array($0.groups.values) }
        for group in groups { group.stop() }
        for group in groups { group.waitUntilFinished() }
    }

    /// How many groups are live now (spawned and not yet reaped).
    public static var liveGroupCount: Int { registry.withLock { $0.groups.count } }

    static func register(_ group: ProcessGroup) {
        let closing = registry.withLock { registry in
            registry.groups[group.pid] = group
            return registry.closing
        }
        if closing { group.stop() }
    }

    static func unregister(_ group: ProcessGroup) {
        registry.withLock { registry in
            if registry.groups[group.pid] === group { registry.groups[group.pid] = nil }
        }
    }
}
