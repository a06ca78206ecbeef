/// A usage or recipe error: printed as one line, exits 2.
struct RWatchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
