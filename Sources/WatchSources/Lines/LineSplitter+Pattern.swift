#if canImport(Glibc)
import Glibc
#endif

/// Splitting with a pattern: lines that cannot match are skipped without
/// being cut out one by one.
extension LineSplitter {
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
        if hasPartialLine {
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
}
