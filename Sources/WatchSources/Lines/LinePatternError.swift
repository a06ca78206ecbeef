/// A pattern that does not compile: one line, naming it and the reason.
public struct LinePatternError: Error, CustomStringConvertible, Sendable, Hashable {
    public var pattern: String
    public var reason: String

    public init(pattern: String, reason: String) {
        self.pattern = pattern
        self.reason = reason
    }

    public var description: String { "bad regex '\(pattern)': \(reason)" }
}
