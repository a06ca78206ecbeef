#if canImport(Glibc)
import Glibc
#endif

/// A `LinePattern` as plain pointers into its compiled form, so that
/// matching a line retains and releases nothing; valid only inside
/// `LinePattern.withMatcher`.
struct LineMatcher {
    let regex: UnsafeMutablePointer<regex_t>
    let needles: UnsafeBufferPointer<Needle>
    /// Whether finding a literal is the whole match.
    let literalDecides: Bool
    /// Looked up once, not per line.
    let memmem: GNUFunctions.Memmem

    /// True when some part of `line` (one line's bytes, no newline) matches.
    @inline(__always)
    func matches(_ line: UnsafeRawBufferPointer) -> Bool {
        if !needles.isEmpty {
            guard containsLiteral(line) else { return false }
            if literalDecides { return true }
        }
        // REG_STARTEND gives the line's extent: no NUL needed, no copy. A
        // zero-length line still needs a valid address.
        var extent = regmatch_t(rm_so: 0, rm_eo: regoff_t(line.count))
        let base = line.baseAddress ?? UnsafeRawPointer(regex)
        return regexec(regex, base.assumingMemoryBound(to: CChar.self), 1, &extent, REG_STARTEND) == 0
    }

    /// Whether the line holds one of the required literals.
    @inline(__always)
    private func containsLiteral(_ line: UnsafeRawBufferPointer) -> Bool {
        for index in needles.indices where find(index, in: line) != nil { return true }
        return false
    }

    /// Whether lines without a literal can be skipped by searching the
    /// literals across many lines at once: there are literals, and none
    /// holds a newline (which no line can contain).
    var searchesAcrossLines: Bool {
        !needles.isEmpty && !needles.contains { UnsafeBufferPointer(start: $0.bytes, count: $0.count).contains(0x0A) }
    }

    /// How many literals there are (one per top-level alternative).
    var literalCount: Int { needles.count }

    /// The offset of the first occurrence of literal `index` in `region`.
    @inline(__always)
    func find(_ index: Int, in region: UnsafeRawBufferPointer) -> Int? {
        let needle = needles[index]
        guard region.count >= needle.count, let base = region.baseAddress else { return nil }
        if needle.folds { return Needle.foldedSearch(needle, in: region) }
        guard let found = memmem(base, region.count, needle.bytes, needle.count) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}

/// One required literal (`RequiredLiteral`), lower-cased when it `folds`.
struct Needle {
    let bytes: UnsafePointer<UInt8>
    let count: Int
    /// Compare ASCII letters regardless of case.
    let folds: Bool

    /// The offset of the first case-insensitive occurrence in `region`
    /// (at least `count` bytes long).
    ///
    /// 16 positions at a time: a position is a candidate when its byte
    /// matches the needle's first byte and the byte `count - 1` further on
    /// matches its last (Wojciech Muła's SIMD filter; a letter is compared
    /// with its 0x20 bit set, which folds ASCII case). Only candidates are
    /// compared in full.
    static func foldedSearch(_ needle: Needle, in region: UnsafeRawBufferPointer) -> Int? {
        let base = region.baseAddress!
        let length = needle.count
        func matches(at start: Int) -> Bool {
            var offset = 0
            while offset < length && lower(base.load(fromByteOffset: start + offset, as: UInt8.self)) == needle.bytes[offset] {
                offset += 1
            }
            return offset == length
        }
        let first = needle.bytes[0]
        let last = needle.bytes[length - 1]
        let firstFold = SIMD16<UInt8>(repeating: isLetter(first) ? 0x20 : 0)
        let lastFold = SIMD16<UInt8>(repeating: isLetter(last) ? 0x20 : 0)
        let firstBytes = SIMD16<UInt8>(repeating: first)
        let lastBytes = SIMD16<UInt8>(repeating: last)
        var start = 0
        while start + length - 1 + 16 <= region.count {
            let leading = (base + start).loadUnaligned(as: SIMD16<UInt8>.self) | firstFold
            let trailing = (base + start + length - 1).loadUnaligned(as: SIMD16<UInt8>.self) | lastFold
            let candidates = (leading .== firstBytes) .& (trailing .== lastBytes)
            if any(candidates) {
                for lane in 0..<16 where candidates[lane] && matches(at: start + lane) { return start + lane }
            }
            start += 16
        }
        while start + length <= region.count {
            if matches(at: start) { return start }
            start += 1
        }
        return nil
    }

    @inline(__always)
    static func isLetter(_ byte: UInt8) -> Bool {
        byte &- 0x41 < 26 || byte &- 0x61 < 26
    }

    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    static func hasLetters(_ bytes: [UInt8]) -> Bool {
        bytes.contains(where: isLetter)
    }
}
