/// Typed reads of a value, for handlers that take a request apart.
///
/// A request's strings may come as either kind: BSER v1 sends every string
/// as `.bytes`, JSON and BSER v2 send text as `.string`. These accessors
/// accept both, so a handler never cares which encoding the client used.
extension WatchmanValue {
    /// A string of either kind as text, when its bytes are valid UTF-8.
    public var text: String? {
        switch self {
        case .string(let text): text
        case .bytes(let bytes): String(validating: bytes, as: UTF8.self)
        default: nil
        }
    }

    /// The integer, when this is one.
    public var integer: Int64? {
        if case .int(let value) = self { value } else { nil }
    }

    /// The number as a `Double`, for an integer or a real.
    public var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    /// The Boolean, when this is one.
    public var boolean: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The elements, when this is an array.
    public var elements: [WatchmanValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// The key-value pairs in order, when this is an object.
    public var pairs: [(key: String, value: WatchmanValue)]? {
        if case .object(let pairs) = self { pairs } else { nil }
    }

    /// A copy of this object with `value` under `key`: replaced in place
    /// when the key is there, appended otherwise. Not an object: unchanged.
    public func setting(_ key: String, to value: WatchmanValue) -> WatchmanValue {
        guard case .object(var pairs) = self else { return self }
        if let index = pairs.firstIndex(where: { $0.key == key }) {
            pairs[index].value = value
        } else {
            pairs.append((key, value))
        }
        return .object(pairs)
    }
}

extension WatchmanValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// A literal string is text: `"version"`.
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: WatchmanValue...) { self = .array(elements) }
    /// Keys in the order written: `["version": "1", "clock": "c:…"]`.
    public init(dictionaryLiteral elements: (String, WatchmanValue)...) {
        self = .object(elements.map { (key: $0.0, value: $0.1) })
    }
    public init(nilLiteral: ()) { self = .null }
}
