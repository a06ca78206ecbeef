import Glibc
import SystemPackage
import WatchSources

/// How `rwatch serve` runs: watchman's server flags and rwatch's limits.
public struct ServiceConfiguration: Sendable {
    /// The Unix socket clients connect to (`WATCHMAN_SOCK`).
    public var sockname: FilePath
    /// Where the log goes; nil: stderr.
    public var logfile: FilePath?
    /// Where watches and triggers are kept across restarts; nil: nowhere.
    public var statefile: FilePath?
    /// A file holding the service's pid while it runs; nil: none.
    public var pidfile: FilePath?
    /// The lines the log file gets (`--log-level`): errors unless told.
    public var logLevel: ServiceLog.Level = .error
    /// What `version` answers: the watchman release whose protocol this
    /// service speaks, so that clients comparing versions see a modern one.
    public var version = "2024.01.01.00"
    /// What `version` answers as `buildinfo`: rwatch's own version.
    public var buildinfo = "rwatch"
    /// Bytes that may wait for one client before pushes are refused
    /// (replies are always queued; the client's next request waits).
    public var clientQueueLimit = 16 << 20
    /// The longest request PDU accepted, in bytes.
    public var maximumRequestLength = 16 << 20
    /// Who besides the owner may reach the socket (`GlobalSettings`):
    /// the socket's mode, group and ACL, and whether other users are served.
    public var socketAccess = SocketAccess()

    public init(sockname: FilePath, logfile: FilePath? = nil, statefile: FilePath? = nil, pidfile: FilePath? = nil) {
        self.sockname = sockname
        self.logfile = logfile
        self.statefile = statefile
        self.pidfile = pidfile
    }

    /// Where the service listens unless told (`ServiceLocation`).
    public static func defaultSockname(environment: [String: String]) -> FilePath {
        ServiceLocation.defaultSockname(environment: environment)
    }

    /// Where the service listens unless told, for this process's own
    /// environment (its values as bytes).
    public static func defaultSockname() -> FilePath {
        ServiceLocation.defaultSockname()
    }

    /// Whether `sockname` is where the default lives: its directory is then
    /// rwatch's own, created 0700 and refused unless owned by this user.
    public static func isDefault(_ sockname: FilePath, environment: [String: String]) -> Bool {
        sockname == defaultSockname(environment: environment)
    }

    /// `isDefault(_:environment:)` for this process's own environment.
    public static func isDefault(_ sockname: FilePath) -> Bool {
        sockname == defaultSockname()
    }

    /// The process environment, for the default socket's location.
    public static var processEnvironment: [String: String] { ServiceLocation.processEnvironment }
}
