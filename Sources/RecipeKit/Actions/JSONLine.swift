/// File events as JSON lines, without Foundation: what `RWATCH_EVENTS_FILE`
/// holds and what `rwatch events --json` prints.
public enum JSONLine {
    /// `{"path":"/a/b","kind":"modified","isDirectory":false}`
    public static func encode(_ event: FileEvent) -> String {
        "{\"path\":\(quote(event.path)),\"kind\":\(quote(event.kind.rawValue)),\"isDirectory\":\(event.isDirectory)}"
    }

    /// A JSON string literal for `text`.
    public static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
