/// How one PDU is written on the socket: a JSON line, or BSER v1 or v2.
///
/// The server answers each request in the encoding it came in, and pushes
/// unilateral PDUs in the encoding of the client's latest request.
public enum WireEncoding: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// One compact JSON value followed by a newline.
    case json
    /// BSER version 1: header `00 01`, every string a byte string.
    case bserV1
    /// BSER version 2: header `00 02` and a 32-bit capability word; text
    /// goes out as BSER's UTF-8 string type unless the client disabled it.
    case bserV2(capabilities: BSERCapabilities)

    /// `value` as one complete PDU in this encoding.
    public func encode(_ value: WatchmanValue) -> [UInt8] {
        switch self {
        case .json: JSONLines.encode(value)
        case .bserV1: BSER.encode(value, version: 1, capabilities: [])
        case .bserV2(let capabilities): BSER.encode(value, version: 2, capabilities: capabilities)
        }
    }

    public var description: String {
        switch self {
        case .json: "json"
        case .bserV1: "bser-v1"
        case .bserV2(let capabilities): "bser-v2(\(capabilities.rawValue))"
        }
    }
}

/// The capability word of a BSER v2 header: what the client asks the
/// server to leave out of what it sends back.
public struct BSERCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Send no UTF-8 string type (`0x0d`): every string as bytes (`0x02`).
    public static let disableUnicode = BSERCapabilities(rawValue: 0x1)
    /// Send error messages as bytes rather than as UTF-8 strings.
    public static let disableUnicodeForErrors = BSERCapabilities(rawValue: 0x2)
}

/// Why bytes could not be decoded: a message for the client's error reply,
/// and the offset in the PDU where decoding stopped.
public struct WireError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var position: Int

    public init(_ message: String, at position: Int) {
        self.message = message
        self.position = position
    }

    /// Watchman's wording for a PDU it could not decode, which it uses for
    /// BSER as well: `invalid json at position N: …`.
    public var description: String { "invalid json at position \(position): \(message)" }
}
