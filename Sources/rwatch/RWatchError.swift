/// A usage or recipe error, or text a user typed or wrote that does not
/// parse (a duration, a signal name, a line of an env file): one line that
/// says what is accepted, printed as it is; rwatch exits 2.
struct RWatchError: Error, CustomStringConvertible, Sendable, Hashable {
    var description: String
    init(_ description: String) { self.description = description }
}
