// The PDU reader and BSER decoder (what every client of `rwatch serve`
// sends). The first byte picks how the rest is cut into pieces; the rest
// is the stream. Properties: reading never traps; the frames are the same
// whether the stream comes whole or in pieces; a PDU that decodes, encoded
// again in its own encoding, decodes to the same value and encoding.
import FuzzSupport
import WatchmanProtocol

/// Every frame of `stream` fed in pieces of `piece` bytes (0: whole).
func frames(_ stream: [UInt8], piece: Int) -> [PDUReader.Frame] {
    var reader = PDUReader(maximumLength: 1 << 20)
    var result: [PDUReader.Frame] = []
    var offset = 0
    repeat {
        let end = piece == 0 ? stream.count : min(stream.count, offset + piece)
        reader.append(stream[offset..<end])
        offset = end
        while case let frame = reader.next(), frame != .needMoreBytes { result.append(frame) }
    } while offset < stream.count
    let last = reader.finish()
    if last != .needMoreBytes { result.append(last) }
    return result
}

/// `value` as it reads back from an encoding that sends text as bytes
/// (BSER v1, or v2 with `disableUnicode`): every string value a byte string.
func asBytes(_ value: WatchmanValue) -> WatchmanValue {
    switch value {
    case .string(let text): .bytes(Array(text.utf8))
    case .array(let elements): .array(elements.map(asBytes))
    case .object(let pairs): .object(pairs.map { ($0.key, asBytes($0.value)) })
    default: value
    }
}

fuzz { data, size in
    let input = bytes(data, size)
    guard let first = input.first else { return 0 }
    let stream = Array(input.dropFirst())
    // Most inputs should be BSER: give the stream a header when it has none.
    let bser = stream.first == 0x00 ? stream : [0x00, 0x01, 0x03, UInt8(truncatingIfNeeded: stream.count)] + stream
    let whole = frames(bser, piece: 0)
    let cut = frames(bser, piece: Int(first % 17) + 1)
    check(whole == cut, "frames differ when the stream comes in pieces of \(first % 17 + 1)")
    for case .pdu(let value, let encoding) in whole {
        let again = encoding.encode(value)
        guard let decoded = try? BSER.decode(again) else {
            check(encoding == .json, "a decoded PDU re-encoded in \(encoding) does not decode")
            continue
        }
        let textAsBytes = encoding == .bserV1 || encoding == .bserV2(capabilities: .disableUnicode)
            || { if case .bserV2(let capabilities) = encoding { capabilities.contains(.disableUnicode) } else { false } }()
        let expected = textAsBytes ? asBytes(value) : value
        check(decoded.0 == expected && decoded.1 == encoding, "a PDU re-encoded in \(encoding) decodes to something else")
    }
    _ = try? BSER.decodeBody(stream)
    return 0
}
