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

    /// Feeds bytes; calls `emit` with every line they complete that
    /// `matcher` keeps (every line when it is nil), in order.
    ///
    /// Lines without any of the pattern's literals are never looked at one
    /// by one: as grep does, the literals are searched across all the
    /// complete lines of `bytes` at once, and only the line around each
    /// occurrence is cut out and matched.
    mutating func append(_ bytes: UnsafeRawBufferPointer, keeping matcher: LineMatcher?, _ emit: (UnsafeRawBufferPointer) -> Void) {
        guard let matcher else { return append(bytes, emit) }
        func keep(_ line: UnsafeRawBufferPointer) {
            if matcher.matches(line) { emit(line) }
        }
        guard matcher.searchesAcrossLines, let base = bytes.baseAddress, bytes.count > 0 else { return append(bytes, keep) }
        var start = 0
        if !partial.isEmpty {
            // The held line ends at the first newline, if there is one.
            guard let end = Self.newline(in: base, from: 0, count: bytes.count) else { return append(bytes, keep) }
            append(UnsafeRawBufferPointer(start: base, count: end + 1), keep)
            start = end + 1
        }
        guard start < bytes.count, let found = GNUFunctions.memrchr(base + start, 0x0A, bytes.count - start) else {
            return append(UnsafeRawBufferPointer(start: base + start, count: bytes.count - start), keep)
        }
        let last = base.distance(to: UnsafeRawPointer(found))
        withUnsafeTemporaryAllocation(of: Int.self, capacity: matcher.literalCount) { hits in
            // hits[i]: where literal i occurs next (at or after `position`),
            // .max if nowhere before `last`, -1 if not searched yet.
            hits.initialize(repeating: -1)
            var position = start
            while position < last {
                var hit = Int.max
                for index in hits.indices {
                    if hits[index] != .max && hits[index] < position {
                        let region = UnsafeRawBufferPointer(start: base + position, count: last - position)
                        hits[index] = matcher.find(index, in: region).map { position + $0 } ?? .max
                    }
                    hit = min(hit, hits[index])
                }
                guard hit != .max else { break }
                let lineStart = GNUFunctions.memrchr(base + position, 0x0A, hit - position)
                    .map { base.distance(to: UnsafeRawPointer($0)) + 1 } ?? position
                let lineEnd = Self.newline(in: base, from: hit, count: last + 1) ?? last
                keep(Self.stripReturn(UnsafeRawBufferPointer(start: base + lineStart, count: lineEnd - lineStart)))
                position = lineEnd + 1
            }
        }
        if last + 1 < bytes.count {
            append(UnsafeRawBufferPointer(start: base + last + 1, count: bytes.count - last - 1), keep)
        }
    }

    /// The offset of the first `\n` in `base[start..<count]`. Lines are
    /// often short (`seq`, build output), and a `memchr` call costs more
    /// than the line: the first 16 bytes are searched 8 at a time in a
    /// register (a zero-byte test on `word ^ 0x0A…`), the rest by `memchr`.
    @inline(__always)
    private static func newline(in base: UnsafeRawPointer, from start: Int, count: Int) -> Int? {
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
    private static func stripReturn(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard let last = line.last, last == 0x0D else { return line }
        return UnsafeRawBufferPointer(start: line.baseAddress, count: line.count - 1)
    }

    /// The line's text, invalid UTF-8 replaced (U+FFFD): the initializer
    /// used checks the bytes once and repairs them if needed.
    @inline(__always)
    static func decode(_ line: UnsafeRawBufferPointer) -> String {
        let count = line.count
        guard count > 0 else { return "" }
        guard count <= 15 else {
            return String(unsafeUninitializedCapacity: count) { buffer in
                UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: line.baseAddress!, byteCount: count)
                return count
            }
        }
        // A short line fits in the string itself (a "small string", read
        // back as two 8-byte words). Writing it byte by byte makes those
        // reads wait for the bytes to reach the cache (a store-to-load
        // forwarding stall), which cost more than all else per line of
        // `seq`; so it goes in as whole words, read without going past it.
        return String(unsafeUninitializedCapacity: 15) { buffer in
            let target = UnsafeMutableRawPointer(buffer.baseAddress!)
            let source = line.baseAddress!
            if count <= 8 {
                target.storeBytes(of: word(source, count).littleEndian, as: UInt64.self)
            } else {
                // The last 8 bytes, then the first 8 (overlapping them).
                target.storeBytes(of: (source + count - 8).loadUnaligned(as: UInt64.self), toByteOffset: count - 8, as: UInt64.self)
                target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
            }
            return count
        }
    }

    /// Bytes `0..<count` (1...8) at `source` as a little-endian word,
    /// zero above them, reading nothing past `count`.
    @inline(__always)
    private static func word(_ source: UnsafeRawPointer, _ count: Int) -> UInt64 {
        if count >= 4 {
            let low = UInt64(UInt32(littleEndian: source.loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: (source + count - 4).loadUnaligned(as: UInt32.self)))
            return low | high << UInt64(8 * (count - 4))
        }
        let middle = count >> 1
        return UInt64(source.load(as: UInt8.self))
            | UInt64(source.load(fromByteOffset: middle, as: UInt8.self)) << UInt64(8 * middle)
            | UInt64(source.load(fromByteOffset: count - 1, as: UInt8.self)) << UInt64(8 * (count - 1))
    }
}
