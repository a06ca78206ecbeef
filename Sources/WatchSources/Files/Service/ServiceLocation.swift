import Glibc
import SystemPackage

/// Where a running `rwatch serve` listens: what the service binds by
/// default and what rwatch's own watches look for, so both agree.
public enum ServiceLocation {
    /// `$XDG_RUNTIME_DIR/rwatch/sock` when that variable names an absolute
    /// directory, else `/tmp/rwatch-$USER/sock` (`$LOGNAME`, then the
    /// password database, when `$USER` is unset).
    public static func defaultSockname(environment: [String: String]) -> FilePath {
        defaultSockname { environment[$0].map { Array($0.utf8) } }
    }

    /// The default socket for this process's own environment, its values
    /// taken as bytes: a directory's name need not be UTF-8.
    public static func defaultSockname() -> FilePath {
        defaultSockname { name in getenv(name).map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } }
    }

    private static func defaultSockname(variable: (String) -> [UInt8]?) -> FilePath {
        if let runtime = variable("XDG_RUNTIME_DIR"), runtime.first == UInt8(ascii: "/") {
            return FilePath(bytes: runtime).appending("rwatch").appending("sock")
        }
        return FilePath(bytes: Array("/tmp/rwatch-".utf8) + userName(variable: variable) + Array("/sock".utf8))
    }

    /// The socket a watch of this process tries: `WATCHMAN_SOCK` (as
    /// bytes) when set and not empty, else the default.
    package static func socketForWatches() -> FilePath {
        if let value = getenv("WATCHMAN_SOCK"), value.pointee != 0 {
            return FilePath(cString: value)
        }
        return defaultSockname()
    }

    /// The process environment as text (for what only reads text from it).
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

    /// `$USER`, else `$LOGNAME`, else the password database's name, else the uid.
    private static func userName(variable: (String) -> [UInt8]?) -> [UInt8] {
        for name in ["USER", "LOGNAME"] {
            if let user = variable(name), !user.isEmpty, !user.contains(UInt8(ascii: "/")) { return user }
        }
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name {
            return Array(UnsafeRawBufferPointer(start: name, count: strlen(name)))
        }
        return Array(String(geteuid()).utf8)
    }
}
