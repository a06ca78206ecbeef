/// Watchman's JSON encoding: one compact JSON value per line.
///
/// Writing: text is written as UTF-8, with `"`, `\` and control characters
/// (C0, DEL, C1) escaped. A file name (`.bytes`) that is not valid UTF-8
/// has each byte outside a valid sequence written `\udcXX` (PEP 383's
/// surrogate escape), exactly as `rwatch events --json` writes paths, so
/// Python's `os.fsencode(json.loads(line)[…])` gives the bytes back.
/// A real that is not finite has no JSON form and is written `null`.
///
/// Reading accepts what clients send: escaped or raw UTF-8, `\udcXX`
/// surrogate escapes (read back as those bytes: the string is `.bytes`),
/// and raw bytes that are not UTF-8 (kept as they are, as `.bytes`).
public enum JSONLines {
    /// Nesting deeper than this is refused, as watchman refuses it in BSER.
    public static let maximumDepth = 500

    /// `value` as one JSON line, newline included.
    public static func encode(_ value: WatchmanValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        JSONWriter.write(value, to: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// The one value in `line` (surrounding whitespace and a trailing
    /// newline allowed, nothing else after the value).
    public static func decode(_ line: some Collection<UInt8>) throws(WireError) -> WatchmanValue {
        let bytes = Array(line)
        return try bytes.withUnsafeBufferPointer { buffer throws(WireError) in
            var parser = JSONParser(buffer)
            return try parser.document()
        }
    }
}

/// Writes values as compact JSON into a byte array.
enum JSONWriter {
    static func write(_ value: WatchmanValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): out.append(contentsOf: String(number).utf8)
        case .real(let number):
            out.append(contentsOf: (number.isFinite ? number.description : "null").utf8)
        case .bytes(let bytes): writeString(bytes, to: &out)
        case .string(var text): text.withUTF8 { writeString($0, to: &out) }
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            out.append(UInt8(ascii: "{"))
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                var key = pair.key
                key.withUTF8 { writeString($0, to: &out) }
                out.append(UInt8(ascii: ":"))
                write(pair.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ bytes: [UInt8], to out: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { writeString($0, to: &out) }
    }

    /// A string literal: runs of plain bytes copied at once, the rest escaped.
    static func writeString(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        @inline(__always) func flush() {
            if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            flush()
            if byte < 0x80 {
                escapeASCII(byte, to: &out)
                index += 1
            } else if let length = UTF8Bytes.sequenceLength(bytes, at: index) {
                // C1 controls (U+0080…U+009F, C2 80…C2 9F) are escaped too.
                if length == 2 && byte == 0xC2 && bytes[index + 1] < 0xA0 {
                    unicodeEscape(UInt16(bytes[index + 1]), to: &out)
                } else {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + length]))
                }
                index += length
            } else {
                unicodeEscape(0xDC00 | UInt16(byte), to: &out)
                index += 1
            }
            runStart = index
        }
        flush()
        out.append(UInt8(ascii: "\""))
    }

    private static func escapeASCII(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        default: unicodeEscape(UInt16(byte), to: &out)
        }
    }

    /// `\uXXXX` in lowercase hex, as Python's `json` writes it.
    private static func unicodeEscape(_ unit: UInt16, to out: inout [UInt8]) {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
        for shift in stride(from: 12, through: 0, by: -4) {
            out.append(digits[Int((unit >> UInt16(shift)) & 0xF)])
        }
    }
}
