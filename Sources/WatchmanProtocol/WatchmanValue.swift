/// One value of watchman's data model: what a JSON line and a BSER PDU both
/// carry, and what every request and reply of `rwatch serve` is made of.
///
/// Strings come in two kinds because BSER has two. `.bytes` is a string with
/// no declared encoding (BSER's `0x02`): file names, which are bytes on Linux.
/// `.string` is text (JSON strings, BSER v2's UTF-8 string `0x0d`, object
/// keys): command names, error messages, field names. A codec decides how each
/// kind is written on its wire; the service never decodes a file name.
///
/// Objects keep their keys in the order they were built or read, so a reply
/// reads in the order the code wrote it; lookups go through `subscript(key:)`.
public enum WatchmanValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case real(Double)
    /// A string of bytes with no declared encoding: a file name.
    case bytes([UInt8])
    /// Text in UTF-8.
    case string(String)
    case array([WatchmanValue])
    /// Key-value pairs in order; keys are unique.
    case object([(key: String, value: WatchmanValue)])

    public static func == (lhs: WatchmanValue, rhs: WatchmanValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.real(a), .real(b)): a == b || (a.isNaN && b.isNaN)
        case let (.bytes(a), .bytes(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The value under `key` when this is an object, else nil.
    public subscript(key: String) -> WatchmanValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// The bytes of a string of either kind, else nil: what a path argument accepts.
    public var stringBytes: [UInt8]? {
        switch self {
        case .bytes(let bytes): bytes
        case .string(let text): Array(text.utf8)
        default: nil
        }
    }
}
