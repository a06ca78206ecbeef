import WatchmanProtocol

extension WatchmanValue {
    /// A string of either kind as text: a term name, a scope, an operator.
    /// BSER v1 clients send every string as bytes, so both kinds are read.
    var text: String? {
        stringBytes.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The elements when this is an array.
    var elements: [WatchmanValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// Whether this is a string of either kind.
    var isString: Bool { stringBytes != nil }

    /// A boolean member of an object: `fallback` when absent, nil when not a boolean.
    func bool(_ key: String, default fallback: Bool) -> Bool? {
        guard let value = self[key] else { return fallback }
        if case .bool(let flag) = value { return flag }
        return nil
    }
}
