import Glibc
import WatchmanProtocol

/// What the global configuration file (`WATCHMAN_CONFIG_FILE`) says about
/// the service as a whole rather than about a root: how the `watchman`
/// command starts it, and the lowest priority it runs at. Read where the
/// roots read theirs (`ConfigurationFiles.global`), so both agree.
public struct GlobalSettings: Sendable, Equatable {
    /// `spawn_watchman_service`: a site's own program that starts the
    /// service (a supervisor's front end), run by the `watchman` command
    /// in place of its own start, with the service's options as arguments.
    public var siteSpawner: [UInt8]?
    /// `min_acceptable_nice_value` (default 0): the service refuses to start
    /// at a nice value above it.
    public var lowestPriority: Int64 = 0
    /// `sock_group`, `sock_access`, `secondary_sock_group`: who besides
    /// the owner may reach the socket, and the modes that follow.
    public var socketAccess = SocketAccess()

    public init(siteSpawner: [UInt8]? = nil, lowestPriority: Int64 = 0, socketAccess: SocketAccess = SocketAccess()) {
        self.siteSpawner = siteSpawner
        self.lowestPriority = lowestPriority
        self.socketAccess = socketAccess
    }

    /// The settings in the file `environment` names; the defaults when it
    /// names none. A damaged file, a bad value or an unknown group is an
    /// error naming it.
    public static func read(environment: [String: String]) throws(ServeError) -> GlobalSettings {
        switch ConfigurationFiles.global(environment: environment) {
        case .failure(let problem): throw ServeError(problem.description)
        case .success(let (value, _)):
            var settings = GlobalSettings(lowestPriority: value["min_acceptable_nice_value"]?.integer ?? 0,
                                          socketAccess: try SocketAccess.read(value))
            if let spawner = value["spawn_watchman_service"]?.stringBytes, !spawner.isEmpty { settings.siteSpawner = spawner }
            return settings
        }
    }

    /// Why the service will not run at nice value `nice`, or nil. A service
    /// starved of the processor reads the kernel's events late and
    /// overflows its queue, which looks to its clients like a slow,
    /// recrawling watcher, so it refuses at once and says why (as
    /// watchman does, with its "refusing to start").
    public func refusal(nice: Int32) -> String? {
        guard Int64(nice) > lowestPriority else { return nil }
        return "refusing to start at a lower priority than normal (nice \(nice), min_acceptable_nice_value "
            + "\(lowestPriority)): a starved service falls behind the kernel's events; start it without nice, "
            + "or raise min_acceptable_nice_value in the global configuration"
    }

    /// This process's nice value.
    public static var currentNice: Int32 {
        errno = 0
        return Glibc.nice(0)
    }
}
