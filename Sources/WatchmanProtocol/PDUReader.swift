/// Cuts a byte stream into PDUs: bytes go in as they arrive, and `next()`
/// says whether a whole PDU is there, more bytes are needed, or the stream
/// is malformed. A pure value: no I/O, no clock.
///
/// Each PDU's encoding is told by its first bytes: `00 01` is BSER v1,
/// `00 02` BSER v2, anything else a JSON line. So a client may switch
/// encodings between PDUs (pywatchman starts in BSER v1 and moves to v2).
///
/// A declared length above `maximumLength` (or a JSON line growing past
/// it) is refused before its bytes are awaited; nothing is reserved for a
/// declared length, only for bytes that came.
public struct PDUReader: Sendable {
    /// One step of reading.
    public enum Frame: Sendable, Equatable {
        /// No whole PDU yet.
        case needMoreBytes
        /// One PDU, and the encoding it came in (the reply's encoding).
        case pdu(WatchmanValue, WireEncoding)
        /// A PDU that could not be read. With `canContinue`, its extent was
        /// known and it was skipped, so reading may go on; otherwise the
        /// stream's framing is lost (a bad length, an oversized PDU).
        case malformed(WireError, WireEncoding, canContinue: Bool)
    }

    /// The longest PDU accepted, in bytes.
    public let maximumLength: Int
    private var buffer: [UInt8] = []
    /// Offset of the first unread byte in `buffer`.
    private var start = 0
    /// How far past `start` a JSON line was already searched for its newline.
    private var scanned = 0
    /// Set once the framing was lost: nothing more is read.
    private var broken = false

    public init(maximumLength: Int = 64 << 20) {
        self.maximumLength = maximumLength
    }

    /// Bytes received and not yet part of a returned PDU.
    public var bufferedCount: Int { buffer.count - start }

    /// Whether the unread bytes hold anything but whitespace between JSON
    /// lines: a client that leaves now leaves mid-PDU.
    public var isMidPDU: Bool {
        buffer[start...].contains { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }

    /// Adds bytes that arrived.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        guard !broken else { return }
        if start > 0 && start * 2 >= buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next PDU, if the bytes hold one.
    public mutating func next() -> Frame {
        guard !broken else { return .needMoreBytes }
        skipBlankLines()
        guard bufferedCount > 0 else { return .needMoreBytes }
        if buffer[start] == 0x00 {
            guard bufferedCount >= 2 else { return .needMoreBytes }
            switch buffer[start + 1] {
            case 0x01: return nextBSER(version: 1)
            case 0x02: return nextBSER(version: 2)
            default: break
            }
        }
        return nextJSON(atEnd: false)
    }

    /// At end of input: a last JSON value with no newline after it is a
    /// PDU; a partial BSER PDU is malformed; nothing left is `.needMoreBytes`.
    public mutating func finish() -> Frame {
        let frame = next()
        guard frame == .needMoreBytes, !broken, bufferedCount > 0 else { return frame }
        if buffer[start] == 0x00 && (bufferedCount < 2 || buffer[start + 1] == 0x01 || buffer[start + 1] == 0x02) {
            let encoding: WireEncoding = bufferedCount >= 2 && buffer[start + 1] == 0x02 ? .bserV2(capabilities: []) : .bserV1
            broken = true
            return .malformed(WireError("unexpected end of input in a BSER PDU", at: bufferedCount), encoding, canContinue: false)
        }
        return nextJSON(atEnd: true)
    }

    private mutating func skipBlankLines() {
        let before = start
        while start < buffer.count, [0x20, 0x09, 0x0A, 0x0D].contains(buffer[start]) { start += 1 }
        if start != before { scanned = 0 }
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
            start = 0
        }
    }

    private mutating func nextJSON(atEnd: Bool) -> Frame {
        let searchFrom = start + scanned
        let newline = buffer[searchFrom...].firstIndex(of: 0x0A)
        guard let end = newline ?? (atEnd ? buffer.count : nil) else {
            scanned = bufferedCount
            if bufferedCount > maximumLength {
                broken = true
                return .malformed(WireError("a JSON PDU longer than \(maximumLength) bytes", at: 0), .json, canContinue: false)
            }
            return .needMoreBytes
        }
        let line = buffer[start..<end]
        start = min(end + 1, buffer.count)
        scanned = 0
        if line.count > maximumLength {
            return .malformed(WireError("a JSON PDU longer than \(maximumLength) bytes", at: 0), .json, canContinue: true)
        }
        do {
            return .pdu(try JSONLines.decode(line), .json)
        } catch {
            return .malformed(error, .json, canContinue: true)
        }
    }

    private mutating func nextBSER(version: Int) -> Frame {
        var encoding: WireEncoding = .bserV1
        var offset = start + 2
        if version == 2 {
            guard buffer.count - offset >= 4 else { return .needMoreBytes }
            var word: UInt32 = 0
            withUnsafeMutableBytes(of: &word) { $0.copyBytes(from: buffer[offset..<offset + 4]) }
            encoding = .bserV2(capabilities: BSERCapabilities(rawValue: word))
            offset += 4
        }
        guard offset < buffer.count else { return .needMoreBytes }
        let sizes: [UInt8: Int] = [0x03: 1, 0x04: 2, 0x05: 4, 0x06: 8]
        guard let size = sizes[buffer[offset]] else {
            broken = true
            return .malformed(WireError("failed to read PDU size", at: offset - start), encoding, canContinue: false)
        }
        guard buffer.count - offset > size else { return .needMoreBytes }
        var length: Int64 = 0
        for shift in 0..<size { length |= Int64(buffer[offset + 1 + shift]) << (8 * shift) }
        if size < 8 {
            let unused = 64 - 8 * size
            length = (length << unused) >> unused
        }
        offset += 1 + size
        guard length >= 0, length <= Int64(maximumLength) else {
            broken = true
            return .malformed(WireError("PDU length \(length) is out of range (at most \(maximumLength))", at: offset - start), encoding, canContinue: false)
        }
        guard buffer.count - offset >= Int(length) else { return .needMoreBytes }
        let end = offset + Int(length)
        defer { start = end }
        do {
            let value = try buffer.withUnsafeBufferPointer { all throws(WireError) in
                try BSER.decodeBody(UnsafeBufferPointer(rebasing: all[offset..<end]))
            }
            return .pdu(value, encoding)
        } catch {
            return .malformed(WireError(error.message, at: error.position + offset - start), encoding, canContinue: true)
        }
    }
}
