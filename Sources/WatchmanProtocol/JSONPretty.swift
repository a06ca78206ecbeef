extension JSONLines {
    /// `value` as indented JSON (four spaces a level, as watchman's CLI
    /// prints to a terminal), newline included. Strings are written as
    /// `encode(_:)` writes them, so only the layout differs.
    public static func encodePretty(_ value: WatchmanValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        writePretty(value, depth: 0, to: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    private static func writePretty(_ value: WatchmanValue, depth: Int, to out: inout [UInt8]) {
        func newline(_ level: Int) {
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 4 * level))
        }
        switch value {
        case .array(let elements) where !elements.isEmpty:
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(depth + 1)
                writePretty(element, depth: depth + 1, to: &out)
            }
            newline(depth)
            out.append(UInt8(ascii: "]"))
        case .object(let pairs) where !pairs.isEmpty:
            out.append(UInt8(ascii: "{"))
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(depth + 1)
                var key = pair.key
                key.withUTF8 { JSONWriter.writeString($0, to: &out) }
                out.append(contentsOf: ": ".utf8)
                writePretty(pair.value, depth: depth + 1, to: &out)
            }
            newline(depth)
            out.append(UInt8(ascii: "}"))
        default:
            JSONWriter.write(value, to: &out)
        }
    }
}
