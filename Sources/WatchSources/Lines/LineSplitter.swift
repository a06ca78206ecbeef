#if canImport(Glibc)
import Glibc
#endif

/// Cuts a byte stream into lines: splits on `\n`, strips a `\r` before it,
/// and holds an unfinished last line until its newline arrives or `finish()`.
///
/// Lines are handed out as bytes, valid only during the call, so that a
/// caller can look at a line (match a pattern, `append(_:keeping:_:)`)
/// before paying for a `String`; `decode` makes one, UTF-8 decoded lossily
/// (invalid bytes become U+FFFD, never a crash).
///
/// A line longer than `maximumLineLength` bytes is emitted in pieces of that
/// size, so a stream without newlines cannot grow memory without bound.
struct LineSplitter {
    /// 64 MiB: far above any real log line, far below trouble.
    static let defaultMaximumLineLength = 64 << 20

    let maximumLineLength: Int
    private var partial: [UInt8] = []

    init(maximumLineLength: Int = LineSplitter.defaultMaximumLineLength) {
        self.maximumLineLength = max(1, maximumLineLength)
    }

    /// Whether bytes of an unfinished line are held.
    var hasPartialLine: Bool { !partial.isEmpty }

    /// Feeds bytes; calls `emit` with every line they complete, in order.
    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer, _ emit: (UnsafeRawBufferPointer) -> Void) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let count = bytes.count
        var start = 0
        while start < count {
            guard let end = Self.newline(in: base, from: start, count: count) else {
                partial.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: count - start))
                if partial.count >= maximumLineLength { emitPartial(emit) }
                return
            }
            if partial.isEmpty {
                emit(Self.stripReturn(UnsafeRawBufferPointer(start: base + start, count: end - start)))
            } else {
                partial.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: end - start))
                emitPartial(emit)
            }
            start = end + 1
        }
    }

    /// The offset of the first `\n` in `base[start..<count]`. Lines are
    /// often short (`seq`, build output), and a `memchr` call costs more
    /// than the line: the first 16 bytes are searched 8 at a time in a
    /// register (a zero-byte test on `word ^ 0x0A…`), the rest by `memchr`.
    @inline(__always)
    static func newline(in base: UnsafeRawPointer, from start: Int, count: Int) -> Int? {
        var index = start
        while index + 8 <= count && index - start < 16 {
            let word = UInt64(littleEndian: (base + index).loadUnaligned(as: UInt64.self)) ^ 0x0A0A_0A0A_0A0A_0A0A
            // The lowest byte flagged is the first zero byte of `word`.
            let zeros = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
            if zeros != 0 { return index + zeros.trailingZeroBitCount / 8 }
            index += 8
        }
        guard index < count, let found = memchr(base + index, 0x0A, count - index) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Ends the stream: a held unfinished line is emitted as the last line.
    mutating func finish(_ emit: (UnsafeRawBufferPointer) -> Void) {
        if !partial.isEmpty { emitPartial(emit) }
    }

    /// Drops a held unfinished line (its file was truncated under it).
    mutating func discardPartialLine() {
        partial = []
    }

    private mutating func emitPartial(_ emit: (UnsafeRawBufferPointer) -> Void) {
        partial.withUnsafeBytes { emit(Self.stripReturn($0)) }
        partial.removeAll(keepingCapacity: partial.count <= 64 * 1024)
    }

    @inline(__always)
    static func stripReturn(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard let last = line.last, last == 0x0D else { return line }
        return UnsafeRawBufferPointer(start: line.baseAddress, count: line.count - 1)
    }
}
