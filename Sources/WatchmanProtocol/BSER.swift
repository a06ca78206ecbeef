/// Watchman's binary encoding, BSER, versions 1 and 2 (see watchman's
/// `docs/bser.md`).
///
/// A PDU is a header (`00 01`, or `00 02` and a 32-bit capability word),
/// the body's length as a BSER integer, then the body. Integers are
/// signed, in host byte order, written in the smallest of 8, 16, 32 or
/// 64 bits that holds them, as watchman writes them. Object keys are byte
/// strings. `.bytes` is always a byte string (`0x02`); `.string` is BSER
/// v2's UTF-8 string (`0x0d`) unless the client set `disableUnicode`, and
/// a byte string in v1. An array of two or more objects with the same keys
/// in the same order is written as a template (`0x0b`), as watchman writes
/// query results.
public enum BSER {
    /// Nesting deeper than this is refused, as watchman refuses it.
    public static let maximumDepth = 500

    enum Tag {
        static let array: UInt8 = 0x00
        static let object: UInt8 = 0x01
        static let bytes: UInt8 = 0x02
        static let int8: UInt8 = 0x03
        static let int16: UInt8 = 0x04
        static let int32: UInt8 = 0x05
        static let int64: UInt8 = 0x06
        static let real: UInt8 = 0x07
        static let `true`: UInt8 = 0x08
        static let `false`: UInt8 = 0x09
        static let null: UInt8 = 0x0A
        static let template: UInt8 = 0x0B
        static let skip: UInt8 = 0x0C
        static let utf8: UInt8 = 0x0D
    }

    /// `value` as one complete PDU of BSER `version` (1 or 2).
    public static func encode(_ value: WatchmanValue, version: Int, capabilities: BSERCapabilities) -> [UInt8] {
        precondition(version == 1 || version == 2, "BSER has versions 1 and 2")
        // Room for the longest header (2 + 4 + 9 bytes), filled in once
        // the body's length is known; the unused front is dropped.
        let slack = 15
        var writer = BSERWriter(textAsUTF8: version == 2 && !capabilities.contains(.disableUnicode))
        writer.out = [UInt8](repeating: 0, count: slack)
        writer.write(value)
        var header: [UInt8] = version == 2 ? [0x00, 0x02] : [0x00, 0x01]
        if version == 2 { withUnsafeBytes(of: capabilities.rawValue) { header.append(contentsOf: $0) } }
        BSERWriter.appendInteger(Int64(writer.out.count - slack), to: &header)
        let start = slack - header.count
        writer.out.replaceSubrange(start..<slack, with: header)
        writer.out.removeFirst(start)
        return writer.out
    }

    /// The value of a PDU's body (the bytes after the length), reading at
    /// most `body.count` bytes; bytes after the value are ignored, as
    /// watchman ignores them.
    public static func decodeBody(_ body: UnsafeBufferPointer<UInt8>) throws(WireError) -> WatchmanValue {
        var parser = BSERParser(body)
        return try parser.value()
    }

    /// The value of a PDU's body.
    public static func decodeBody(_ body: [UInt8]) throws(WireError) -> WatchmanValue {
        try body.withUnsafeBufferPointer { buffer throws(WireError) in try decodeBody(buffer) }
    }

    /// One whole PDU (header, length, body) and its encoding.
    public static func decode(_ pdu: [UInt8]) throws(WireError) -> (WatchmanValue, WireEncoding) {
        var reader = PDUReader()
        reader.append(pdu)
        switch reader.next() {
        case .pdu(let value, let encoding): return (value, encoding)
        case .malformed(let error, _, _): throw error
        case .needMoreBytes: throw WireError("unexpected end of input", at: pdu.count)
        }
    }
}

/// Writes BSER values into a byte array.
struct BSERWriter {
    var out: [UInt8] = []
    /// Whether `.string` is written as the UTF-8 string type.
    let textAsUTF8: Bool

    init(textAsUTF8: Bool) {
        self.textAsUTF8 = textAsUTF8
    }

    mutating func write(_ value: WatchmanValue) {
        switch value {
        case .null: out.append(BSER.Tag.null)
        case .bool(let flag): out.append(flag ? BSER.Tag.true : BSER.Tag.false)
        case .int(let number): Self.appendInteger(number, to: &out)
        case .real(let number):
            out.append(BSER.Tag.real)
            withUnsafeBytes(of: number) { out.append(contentsOf: $0) }
        case .bytes(let bytes): writeString(bytes, tag: BSER.Tag.bytes)
        case .string(var text): text.withUTF8 { writeString($0, tag: textAsUTF8 ? BSER.Tag.utf8 : BSER.Tag.bytes) }
        case .array(let elements):
            if let keys = Self.templateKeys(elements) {
                writeTemplate(elements, keys: keys)
            } else {
                out.append(BSER.Tag.array)
                Self.appendInteger(Int64(elements.count), to: &out)
                for element in elements { write(element) }
            }
        case .object(let pairs):
            out.append(BSER.Tag.object)
            Self.appendInteger(Int64(pairs.count), to: &out)
            for pair in pairs {
                var key = pair.key
                key.withUTF8 { writeString($0, tag: BSER.Tag.bytes) }
                write(pair.value)
            }
        }
    }

    private mutating func writeString(_ bytes: [UInt8], tag: UInt8) {
        bytes.withUnsafeBufferPointer { writeString($0, tag: tag) }
    }

    private mutating func writeString(_ bytes: UnsafeBufferPointer<UInt8>, tag: UInt8) {
        out.append(tag)
        Self.appendInteger(Int64(bytes.count), to: &out)
        out.append(contentsOf: bytes)
    }

    /// The shared keys when `elements` are two or more objects with the
    /// same non-empty keys in the same order.
    private static func templateKeys(_ elements: [WatchmanValue]) -> [String]? {
        guard elements.count >= 2, case .object(let first) = elements[0], !first.isEmpty else { return nil }
        for element in elements.dropFirst() {
            guard case .object(let pairs) = element, pairs.count == first.count,
                  zip(pairs, first).allSatisfy({ $0.key == $1.key }) else { return nil }
        }
        return first.map(\.key)
    }

    private mutating func writeTemplate(_ elements: [WatchmanValue], keys: [String]) {
        out.append(BSER.Tag.template)
        out.append(BSER.Tag.array)
        Self.appendInteger(Int64(keys.count), to: &out)
        for var key in keys { key.withUTF8 { writeString($0, tag: BSER.Tag.bytes) } }
        Self.appendInteger(Int64(elements.count), to: &out)
        for case .object(let pairs) in elements {
            for pair in pairs { write(pair.value) }
        }
    }

    /// An integer in the fewest bytes that hold it, host byte order.
    static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if let small = Int8(exactly: value) {
            out.append(BSER.Tag.int8)
            out.append(UInt8(bitPattern: small))
        } else if let small = Int16(exactly: value) {
            out.append(BSER.Tag.int16)
            withUnsafeBytes(of: small) { out.append(contentsOf: $0) }
        } else if let small = Int32(exactly: value) {
            out.append(BSER.Tag.int32)
            withUnsafeBytes(of: small) { out.append(contentsOf: $0) }
        } else {
            out.append(BSER.Tag.int64)
            withUnsafeBytes(of: value) { out.append(contentsOf: $0) }
        }
    }
}
