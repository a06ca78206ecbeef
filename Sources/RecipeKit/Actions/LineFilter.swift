/// A compiled regular expression for filtering lines (`grep`, `rwatch tail
/// --grep`).
public struct LineFilter: @unchecked Sendable {
    // Safety: `Regex` is an immutable value; matching does not mutate it.
    private let regex: Regex<AnyRegexOutput>

    /// Compiles `pattern`; throws a one-line error when it is not valid.
    public init(validating pattern: String, ignoringCase: Bool = true) throws {
        do {
            let compiled = try Regex(pattern)
            regex = ignoringCase ? compiled.ignoresCase() : compiled
        } catch {
            throw LineFilterError(pattern: pattern, reason: "\(error)")
        }
    }

    /// Compiles `pattern`, stopping the program with the error when invalid.
    public init(_ pattern: String, ignoringCase: Bool = true) {
        do {
            try self.init(validating: pattern, ignoringCase: ignoringCase)
        } catch {
            fatalError("\(error)")
        }
    }

    /// True when `line` contains a match.
    public func matches(_ line: String) -> Bool {
        line.contains(regex)
    }
}

/// A regular expression that does not compile.
public struct LineFilterError: Error, CustomStringConvertible {
    public var pattern: String
    public var reason: String
    public var description: String { "bad regex '\(pattern)': \(reason)" }
}
