/// Reads one BSER value from a PDU's body. Every count is checked against
/// the bytes left before anything is reserved (a hostile count costs
/// nothing), nesting is bounded (`BSER.maximumDepth`), and a template must
/// name at least one key (a small document cannot expand into a huge one).
struct BSERParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private var remaining: Int { bytes.count - index }

    private func fail(_ message: String) -> WireError { WireError(message, at: index) }

    mutating func value() throws(WireError) -> WatchmanValue {
        try value(tag: try take())
    }

    private mutating func take() throws(WireError) -> UInt8 {
        guard index < bytes.count else { throw fail("unexpected end of input") }
        defer { index += 1 }
        return bytes[index]
    }

    private mutating func value(tag: UInt8) throws(WireError) -> WatchmanValue {
        switch tag {
        case BSER.Tag.int8, BSER.Tag.int16, BSER.Tag.int32, BSER.Tag.int64: return .int(try integer(tag: tag))
        case BSER.Tag.bytes: return .bytes(try stringBytes())
        case BSER.Tag.utf8:
            let raw = try stringBytes()
            // Declared text that is not UTF-8 stays bytes rather than be altered.
            return UTF8Bytes.isValid(raw) ? .string(String(decoding: raw, as: UTF8.self)) : .bytes(raw)
        case BSER.Tag.real:
            let number = Double(bitPattern: UInt64(bitPattern: try fixed(Int64.self)))
            guard number.isFinite else { throw fail("reals must be finite") }
            return .real(number)
        case BSER.Tag.true: return .bool(true)
        case BSER.Tag.false: return .bool(false)
        case BSER.Tag.null: return .null
        case BSER.Tag.array: return try array()
        case BSER.Tag.object: return try object()
        case BSER.Tag.template: return try template()
        default:
            index -= 1
            throw fail("invalid bser encoding type: 0x\(String(tag, radix: 16))")
        }
    }

    private mutating func fixed<T: FixedWidthInteger>(_: T.Type) throws(WireError) -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { throw fail("unexpected end of input") }
        let number = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[index..<index + size])).loadUnaligned(as: T.self)
        index += size
        return number
    }

    private mutating func integer(tag: UInt8) throws(WireError) -> Int64 {
        switch tag {
        case BSER.Tag.int8: Int64(try fixed(Int8.self))
        case BSER.Tag.int16: Int64(try fixed(Int16.self))
        case BSER.Tag.int32: Int64(try fixed(Int32.self))
        default: try fixed(Int64.self)
        }
    }

    /// A count that must be an integer, not negative, and at most what the
    /// bytes left could hold with `bytesEach` bytes per item.
    private mutating func count(_ what: String, bytesEach: Int) throws(WireError) -> Int {
        let tag = try take()
        guard (BSER.Tag.int8...BSER.Tag.int64).contains(tag) else {
            index -= 1
            throw fail("expected an integer for the \(what) size, found type 0x\(String(tag, radix: 16))")
        }
        let number = try integer(tag: tag)
        guard number >= 0 else { throw fail("\(what) has negative size") }
        guard number <= Int64(remaining / bytesEach) else { throw fail("\(what) size \(number) exceeds the input") }
        return Int(number)
    }

    private mutating func stringBytes() throws(WireError) -> [UInt8] {
        let length = try count("string", bytesEach: 1)
        defer { index += length }
        return Array(UnsafeBufferPointer(rebasing: bytes[index..<index + length]))
    }

    private mutating func enter() throws(WireError) {
        depth += 1
        if depth >= BSER.maximumDepth { throw fail("bser document exceeds recursion limit") }
    }

    private mutating func array() throws(WireError) -> WatchmanValue {
        try enter()
        defer { depth -= 1 }
        let count = try count("array", bytesEach: 1)
        var elements: [WatchmanValue] = []
        elements.reserveCapacity(min(count, 4096))
        for _ in 0..<count { elements.append(try value()) }
        return .array(elements)
    }

    private mutating func key() throws(WireError) -> String {
        let tag = try take()
        guard tag == BSER.Tag.bytes || tag == BSER.Tag.utf8 else {
            index -= 1
            throw fail("expected a string key, found type 0x\(String(tag, radix: 16))")
        }
        return String(decoding: try stringBytes(), as: UTF8.self)
    }

    private mutating func object() throws(WireError) -> WatchmanValue {
        try enter()
        defer { depth -= 1 }
        // A key is at least 3 bytes (tag, size, and no text), a value 1.
        let count = try count("object", bytesEach: 4)
        var builder = ObjectBuilder(capacity: count)
        for _ in 0..<count {
            let key = try key()
            builder.set(key, try value())
        }
        return .object(builder.pairs)
    }

    private mutating func template() throws(WireError) -> WatchmanValue {
        try enter()
        defer { depth -= 1 }
        guard try take() == BSER.Tag.array else {
            index -= 1
            throw fail("a template's keys must be an array")
        }
        let keyCount = try count("template keys", bytesEach: 3)
        guard keyCount > 0 else { throw fail("templates require a non-empty key set") }
        var keys = ObjectBuilder(capacity: keyCount)
        // Where each position's value goes: a repeated key keeps its first place.
        var slots: [Int] = []
        slots.reserveCapacity(min(keyCount, 4096))
        for _ in 0..<keyCount { slots.append(keys.set(try key(), .null)) }
        let rows = try count("template", bytesEach: keyCount)
        var elements: [WatchmanValue] = []
        elements.reserveCapacity(min(rows, 4096))
        for _ in 0..<rows {
            var values = [WatchmanValue?](repeating: nil, count: keys.pairs.count)
            for slot in slots {
                let tag = try take()
                if tag != BSER.Tag.skip { values[slot] = try value(tag: tag) }
            }
            elements.append(.object(zip(keys.pairs, values).compactMap { pair, value in value.map { (pair.key, $0) } }))
        }
        return .array(elements)
    }
}
