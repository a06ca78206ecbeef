/// An object's pairs as a decoder reads them: a repeated key keeps its
/// first place and takes the last value (as watchman's parsers do), found
/// by hashing so that a hostile document of repeated keys stays linear.
struct ObjectBuilder {
    private(set) var pairs: [(key: String, value: WatchmanValue)] = []
    private var positions: [String: Int] = [:]

    init(capacity: Int) {
        pairs.reserveCapacity(min(capacity, 1024))
    }

    /// Sets `key` to `value`; returns the key's position.
    @discardableResult
    mutating func set(_ key: String, _ value: WatchmanValue) -> Int {
        if let at = positions[key] {
            pairs[at].value = value
            return at
        }
        positions[key] = pairs.count
        pairs.append((key, value))
        return pairs.count - 1
    }
}
