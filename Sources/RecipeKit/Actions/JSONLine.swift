import SystemPackage

/// File events as JSON lines, without Foundation: what `RWATCH_EVENTS_FILE`
/// holds and what `rwatch events --json` prints.
///
/// Every line is valid UTF-8. A path is bytes and need not be UTF-8: each
/// byte that is not part of valid UTF-8 is written `\udcXX` (PEP 383's
/// surrogate escape), so Python's `os.fsencode(json.loads(line)["path"])`
/// gives the path's bytes back. Control characters (C0, DEL, C1) are
/// escaped the JSON way (`\n`, `\u001b`).
public enum JSONLine {
    /// `{"path":"/a/b","kind":"modified","isDirectory":false}`
    public static func encode(_ event: FileEvent) -> String {
        "{\"path\":\(quote(event.path)),\"kind\":\(quote(event.kind.rawValue)),\"isDirectory\":\(event.isDirectory)}"
    }

    /// `encode(_:)` with `"time"`: seconds (microsecond precision) on a
    /// monotonic clock since the session began, as `rwatch events --json`
    /// prints for `rwatch replay`.
    public static func encode(_ event: FileEvent, time: Duration) -> String {
        let micros = time.components.seconds * 1_000_000 + time.components.attoseconds / 1_000_000_000_000
        let fraction = String(micros % 1_000_000)
        let seconds = "\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
        return String(encode(event).dropLast()) + ",\"time\":\(seconds)}"
    }

    /// A JSON string literal for `text`.
    public static func quote(_ text: String) -> String {
        var text = text
        return text.withUTF8 { quote(bytes: $0) }
    }

    /// A JSON string literal for `path`'s bytes, with surrogate escapes
    /// for the bytes that are not UTF-8.
    public static func quote(_ path: FilePath) -> String {
        path.withBytes { quote(bytes: $0) }
    }

    private static func quote(bytes: UnsafeBufferPointer<UInt8>) -> String {
        if LenientUTF8.isPlainASCII(bytes), !bytes.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + String(decoding: bytes, as: UTF8.self) + "\""
        }
        var out = "\""
        out.reserveCapacity(bytes.count + 2)
        LenientUTF8.forEach(bytes) { piece in
            switch piece {
            case .byte(let byte):
                unicodeEscape(0xDC00 | UInt32(byte), to: &out)
            case .scalar(let scalar):
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "\u{8}": out += "\\b"
                case "\u{C}": out += "\\f"
                case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                    unicodeEscape(scalar.value, to: &out)
                default:
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `\uXXXX`, lowercase hex as Python's `json` writes it.
    private static func unicodeEscape(_ value: UInt32, to out: inout String) {
        let hex = String(value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
