import WatchmanProtocol

extension WatchmanValue {
    /// Whether this is a string of either kind.
    var isString: Bool { stringBytes != nil }

    /// A boolean member of an object: `fallback` when absent, nil when not a boolean.
    func bool(_ key: String, default fallback: Bool) -> Bool? {
        guard let value = self[key] else { return fallback }
        if case .bool(let flag) = value { return flag }
        return nil
    }
}
