/// Why the service could not start: one line for the user.
public struct ServeError: Error, Sendable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }

    /// `what: strerror(errno)`.
    static func system(_ what: String, _ code: Int32) -> ServeError {
        ServeError("\(what): \(String(cString: strerror(code)))")
    }
}

import Glibc
