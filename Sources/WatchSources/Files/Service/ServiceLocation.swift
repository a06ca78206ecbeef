import Glibc
import SystemPackage

/// Where a running `rwatch serve` listens: what the service binds by
/// default and what rwatch's own watches look for, so both agree.
public enum ServiceLocation {
    /// `$XDG_RUNTIME_DIR/rwatch/sock` when that variable names an absolute
    /// directory, else `/tmp/rwatch-$USER/sock` (`$LOGNAME`, then the
    /// password database, when `$USER` is unset).
    public static func defaultSockname(environment: [String: String]) -> FilePath {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return FilePath(runtime).appending("rwatch").appending("sock")
        }
        return FilePath("/tmp/rwatch-\(userName(environment: environment))/sock")
    }

    /// The socket a watch of this process tries: `WATCHMAN_SOCK` (as
    /// bytes) when set and not empty, else the default.
    static func socketForWatches() -> FilePath {
        if let value = getenv("WATCHMAN_SOCK"), value.pointee != 0 {
            return FilePath(cString: value)
        }
        return defaultSockname(environment: processEnvironment)
    }

    /// The process environment as text, for the default socket's location.
    public static var processEnvironment: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }

    private static func userName(environment: [String: String]) -> String {
        if let user = environment["USER"], !user.isEmpty, !user.contains("/") { return user }
        if let user = environment["LOGNAME"], !user.isEmpty, !user.contains("/") { return user }
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return String(geteuid())
    }
}
