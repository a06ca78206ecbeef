/// A recursive-descent JSON reader over bytes, for one PDU at a time.
/// Depth is bounded (`JSONLines.maximumDepth`); every error names the
/// offset where reading stopped.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The one value of the document, whitespace around it allowed.
    mutating func document() throws(WireError) -> WatchmanValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw fail("end of file expected") }
        return value
    }

    private func fail(_ message: String) -> WireError { WireError(message, at: index) }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func parseValue() throws(WireError) -> WatchmanValue {
        guard index < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""):
            let (raw, isText) = try parseString()
            return isText ? .string(String(decoding: raw, as: UTF8.self)) : .bytes(raw)
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("invalid token")
        }
    }

    private mutating func literal(_ word: String) throws(WireError) {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count,
              expected.indices.allSatisfy({ bytes[index + $0] == expected[$0] }) else { throw fail("invalid token") }
        index += expected.count
    }

    private mutating func enter() throws(WireError) {
        depth += 1
        if depth > JSONLines.maximumDepth { throw fail("maximum parsing depth reached") }
    }

    private mutating func parseArray() throws(WireError) -> WatchmanValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [WatchmanValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw fail("']' expected") }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            guard bytes[index] == UInt8(ascii: ",") else { throw fail("']' expected") }
            index += 1
        }
    }

    private mutating func parseObject() throws(WireError) -> WatchmanValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var builder = ObjectBuilder(capacity: 0)
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object([])
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("string or '}' expected") }
            let key = String(decoding: try parseString().bytes, as: UTF8.self)
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("':' expected") }
            index += 1
            skipWhitespace()
            builder.set(key, try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw fail("'}' expected") }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(builder.pairs) }
            guard bytes[index] == UInt8(ascii: ",") else { throw fail("'}' expected") }
            index += 1
        }
    }

    /// The bytes of a string literal, and whether they are UTF-8 text
    /// (surrogate escapes that spell valid UTF-8 make text too: the same
    /// bytes are the same string however they were escaped).
    private mutating func parseString() throws(WireError) -> (bytes: [UInt8], isText: Bool) {
        index += 1
        var out: [UInt8] = []
        var isASCII = true
        while true {
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 {
                if bytes[index] >= 0x80 { isASCII = false }
                index += 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            guard index < bytes.count else { throw fail("premature end of input") }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return (out, isASCII || UTF8Bytes.isValid(out))
            case UInt8(ascii: "\\"):
                try parseEscape(into: &out)
                if out.last.map({ $0 >= 0x80 }) == true { isASCII = false }
            default:
                throw fail("control character 0x\(String(bytes[index], radix: 16)) in string")
            }
        }
    }

    /// Appends one escape's bytes (a surrogate escape `\udcXX` stands for
    /// the byte XX).
    private mutating func parseEscape(into out: inout [UInt8]) throws(WireError) {
        index += 1
        guard index < bytes.count else { throw fail("premature end of input") }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(letter)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hexUnit()
            switch unit {
            case 0xD800...0xDBFF:
                guard remainingStartsWithEscapeU() else { throw fail("invalid Unicode '\\u\(String(unit, radix: 16))'") }
                index += 2
                let low = try hexUnit()
                guard (0xDC00...0xDFFF).contains(low) else { throw fail("invalid Unicode '\\u\(String(unit, radix: 16))'") }
                let scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                out.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
            case 0xDC80...0xDCFF:
                out.append(UInt8(unit & 0xFF))
            case 0xDC00...0xDFFF:
                throw fail("invalid Unicode '\\u\(String(unit, radix: 16))'")
            default:
                out.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(unit)!)!)
            }
        default:
            throw fail("invalid escape")
        }
    }

    private func remainingStartsWithEscapeU() -> Bool {
        bytes.count - index >= 2 && bytes[index] == UInt8(ascii: "\\") && bytes[index + 1] == UInt8(ascii: "u")
    }

    private mutating func hexUnit() throws(WireError) -> UInt16 {
        guard bytes.count - index >= 4 else { throw fail("invalid escape") }
        var unit: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("invalid escape")
            }
            unit = unit << 4 | UInt16(digit)
            index += 1
        }
        return unit
    }

    /// JSON's number grammar; an integer that fits in 64 bits is `.int`,
    /// anything else `.real`.
    private mutating func parseNumber() throws(WireError) -> WatchmanValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        let integerDigits = index - digitsStart
        guard integerDigits > 0 else { throw fail("invalid token") }
        if integerDigits > 1 && bytes[digitsStart] == UInt8(ascii: "0") { throw fail("invalid token") }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            let fractionStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > fractionStart else { throw fail("invalid token") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let exponentStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > exponentStart else { throw fail("invalid token") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .int(integer) }
        guard let real = Double(text), real.isFinite else { throw fail("real number overflow") }
        return .real(real)
    }
}
