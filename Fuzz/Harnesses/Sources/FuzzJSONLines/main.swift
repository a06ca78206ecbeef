// The JSON-lines decoder (what pywatchman's JSON codec and `nc` send).
// Properties: decoding never traps; a line that decodes, encoded again, is
// one valid UTF-8 line that decodes to the same value (surrogate escapes
// and raw bytes that are not UTF-8 included); a stream of lines is cut the
// same way whole or byte by byte.
import FuzzSupport
import WatchmanProtocol

fuzz { data, size in
    let input = bytes(data, size)
    if let value = try? JSONLines.decode(input) {
        let line = JSONLines.encode(value)
        check(line.last == 0x0A && !line.dropLast().contains(0x0A), "an encoded value is not one line")
        check(String(validating: line, as: UTF8.self) != nil, "an encoded line is not UTF-8")
        guard let again = try? JSONLines.decode(line) else {
            check(false, "an encoded line does not decode: \(String(decoding: line, as: UTF8.self))")
            return 0
        }
        check(again == value, "a line re-encoded decodes to something else")
    }
    var whole = PDUReader(maximumLength: 1 << 20)
    whole.append(input)
    var expected: [PDUReader.Frame] = []
    while case let frame = whole.next(), frame != .needMoreBytes { expected.append(frame) }
    var pieces = PDUReader(maximumLength: 1 << 20)
    var seen: [PDUReader.Frame] = []
    for byte in input {
        pieces.append([byte])
        while case let frame = pieces.next(), frame != .needMoreBytes { seen.append(frame) }
    }
    check(seen == expected, "lines are cut differently byte by byte")
    return 0
}
