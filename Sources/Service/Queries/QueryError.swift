/// Why a query (or a root command) cannot be answered: the one line that
/// goes back to the client as its error reply.
///
/// Parse errors read as watchman's do (`failed to parse query: unknown
/// expression term 'frob'`), with the `watchman::QueryParseError: ` prefix watchman's
/// replies carry, since clients and watchman's own tests look for both.
public struct QueryError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }

    /// A query that cannot be parsed.
    static func parse(_ detail: String) -> QueryError {
        QueryError("watchman::QueryParseError: failed to parse query: " + detail)
    }
}
