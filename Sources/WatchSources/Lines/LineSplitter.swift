#if canImport(Glibc)
import Glibc
#endif

/// Cuts a byte stream into lines: splits on `\n`, strips a `\r` before it,
/// and holds an unfinished last line until its newline arrives or `finish()`.
///
/// Lines are handed out as bytes, valid only during the call, so that a
/// caller can look at a line (match a pattern) before paying for a
/// `String`; `decode` makes one, UTF-8 decoded lossily (invalid bytes become
/// U+FFFD, never a crash).
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
            guard let found = memchr(base + start, 0x0A, count - start) else {
                partial.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: count - start))
                if partial.count >= maximumLineLength { emitPartial(emit) }
                return
            }
            let end = base.distance(to: UnsafeRawPointer(found))
            if partial.isEmpty {
                emit(Self.stripReturn(UnsafeRawBufferPointer(start: base + start, count: end - start)))
            } else {
                partial.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: end - start))
                emitPartial(emit)
            }
            start = end + 1
        }
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
    private static func stripReturn(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard let last = line.last, last == 0x0D else { return line }
        return UnsafeRawBufferPointer(rebasing: line.dropLast())
    }

    /// The line's text, invalid UTF-8 replaced.
    @inline(__always)
    static func decode(_ line: UnsafeRawBufferPointer) -> String {
        let count = line.count
        if isASCII(line) {
            // Valid by construction: skips the repairing decoder's extra passes.
            return String(unsafeUninitializedCapacity: count) { buffer in
                buffer.initialize(fromContentsOf: line)
            }
        }
        return String(decoding: line, as: UTF8.self)
    }

    @inline(__always)
    private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var combined: UInt8 = 0
        for byte in bytes { combined |= byte }
        return combined < 0x80
    }
}
