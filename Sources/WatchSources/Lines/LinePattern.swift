#if canImport(Glibc)
import Glibc
#endif

/// A regular expression for keeping lines, in the syntax of `grep -E`
/// (POSIX extended, with GNU's `\w`, `\s`, `\b`, `\<`, `\>`; `\d` and `\D`
/// are accepted too), compiled once and matched against raw line bytes.
///
///     let errors = try LinePattern("status=5[0-9]{2}|timeout")
///     Tail.follow(["app.log"], from: .end, matching: errors)
///
/// Fast the way grep is: the longest piece of plain text that every match
/// must contain (one per alternative of `a|b`) is searched with `memmem`
/// first, and only lines that hold it reach the regex engine (glibc's
/// `regexec`); a pattern that is plain text never does. Handed to
/// `Tail.follow(_:from:matching:)`, lines that do not match are dropped
/// before they become strings.
///
/// Matching is byte-wise (C locale): `.` matches one byte and
/// `ignoringCase` folds ASCII letters only. Safe to use from many threads.
public struct LinePattern: Sendable, CustomStringConvertible {
    /// The expression as given.
    public let pattern: String
    /// Whether ASCII letters match regardless of case.
    public let ignoringCase: Bool
    private let compiled: CompiledPattern

    /// Compiles `pattern`; a pattern that does not compile throws a
    /// `LinePatternError` naming it and the reason.
    public init(_ pattern: String, ignoringCase: Bool = false) throws(LinePatternError) {
        self.pattern = pattern
        self.ignoringCase = ignoringCase
        let extended = Self.expandingDigitClasses(Array(pattern.utf8))
        compiled = try CompiledPattern.compile(extended, pattern: pattern, ignoringCase: ignoringCase)
    }

    public var description: String { pattern }

    /// True when some part of `line` matches.
    public func matches(_ line: String) -> Bool {
        var line = line
        return line.withUTF8 { utf8 in
            withMatcher { $0.matches(UnsafeRawBufferPointer(utf8)) }
        }
    }

    /// Runs `body` with a `LineMatcher` for this pattern, valid only inside
    /// it: a loop over many lines matches without reference counting.
    @inline(__always)
    func withMatcher<Result>(_ body: (LineMatcher) -> Result) -> Result {
        withExtendedLifetime(compiled) { body(compiled.matcher) }
    }

    /// `withMatcher` for an optional pattern: `nil` keeps every line.
    @inline(__always)
    static func withMatcher<Result>(_ pattern: LinePattern?, _ body: (LineMatcher?) -> Result) -> Result {
        guard let pattern else { return body(nil) }
        return pattern.withMatcher { body($0) }
    }

    /// `\d` and `\D`, which people bring from other regex syntaxes, as the
    /// bracket expressions POSIX spells them with (outside brackets only).
    private static func expandingDigitClasses(_ pattern: [UInt8]) -> [UInt8] {
        guard pattern.contains(UInt8(ascii: "\\")) else { return pattern }
        var result: [UInt8] = []
        var index = 0
        while index < pattern.count {
            switch pattern[index] {
            case UInt8(ascii: "["):
                // Inside brackets a backslash is itself: copied as it is.
                let length = RequiredLiteral.bracketLength(pattern, from: index)
                result += pattern[index..<(index + length)]
                index += length
            case UInt8(ascii: "\\") where index + 1 < pattern.count:
                switch pattern[index + 1] {
                case UInt8(ascii: "d"): result += Array("[0-9]".utf8)
                case UInt8(ascii: "D"): result += Array("[^0-9]".utf8)
                default: result += pattern[index...(index + 1)]
                }
                index += 2
            default:
                result.append(pattern[index])
                index += 1
            }
        }
        return result
    }
}

/// A pattern that does not compile: one line, naming it and the reason.
public struct LinePatternError: Error, CustomStringConvertible, Sendable, Hashable {
    public var pattern: String
    public var reason: String

    public init(pattern: String, reason: String) {
        self.pattern = pattern
        self.reason = reason
    }

    public var description: String { "bad regex '\(pattern)': \(reason)" }
}

/// A `LinePattern` as plain pointers into its compiled form, so that
/// matching a line retains and releases nothing; valid only inside
/// `LinePattern.withMatcher`.
struct LineMatcher {
    fileprivate let regex: UnsafeMutablePointer<regex_t>
    fileprivate let needles: UnsafeBufferPointer<Needle>
    /// Whether finding a literal is the whole match.
    fileprivate let literalDecides: Bool
    /// Looked up once, not per line.
    fileprivate let memmem: GNUFunctions.Memmem

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
    fileprivate static func foldedSearch(_ needle: Needle, in region: UnsafeRawBufferPointer) -> Int? {
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

/// What `LinePattern` compiles to: glibc's `regex_t` and the literals to
/// look for first, in memory of its own, freed with the last copy.
private final class CompiledPattern: @unchecked Sendable {
    // Safety: written once in `init`; glibc's `regexec` takes the
    // expression's own lock, so concurrent matching is safe.
    let matcher: LineMatcher

    /// Compiles, or throws with glibc's reason. (A factory rather than a
    /// throwing class initializer: nothing half-made to clean up.)
    static func compile(_ extended: [UInt8], pattern: String, ignoringCase: Bool) throws(LinePatternError) -> CompiledPattern {
        if extended.contains(0) {
            throw LinePatternError(pattern: pattern, reason: "contains a NUL byte")
        }
        var flags = REG_EXTENDED | REG_NOSUB
        if ignoringCase { flags |= REG_ICASE }
        let regex = UnsafeMutablePointer<regex_t>.allocate(capacity: 1)
        let code = (extended + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { regcomp(regex, $0.baseAddress!, flags) }
        }
        guard code == 0 else {
            var message = [CChar](repeating: 0, count: 256)
            regerror(code, regex, &message, message.count)
            regex.deallocate()
            let reason = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw LinePatternError(pattern: pattern, reason: reason)
        }
        return CompiledPattern(regex, extended, ignoringCase: ignoringCase)
    }

    private init(_ regex: UnsafeMutablePointer<regex_t>, _ extended: [UInt8], ignoringCase: Bool) {
        let literals = RequiredLiteral.forEachAlternative(of: extended) ?? []
        let needles = UnsafeMutableBufferPointer<Needle>.allocate(capacity: literals.count)
        for (index, literal) in literals.enumerated() {
            let folds = ignoringCase && Needle.hasLetters(literal.bytes)
            let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: literal.bytes.count)
            _ = bytes.initialize(from: folds ? literal.bytes.map(Needle.lower) : literal.bytes)
            needles.initializeElement(at: index, to: Needle(bytes: UnsafePointer(bytes.baseAddress!), count: bytes.count, folds: folds))
        }
        matcher = LineMatcher(
            regex: regex, needles: UnsafeBufferPointer(needles),
            literalDecides: !literals.isEmpty && literals.allSatisfy(\.isWholePattern),
            memmem: GNUFunctions.memmem
        )
    }

    deinit {
        regfree(matcher.regex)
        matcher.regex.deallocate()
        for needle in matcher.needles { UnsafeMutablePointer(mutating: needle.bytes).deallocate() }
        UnsafeMutableBufferPointer(mutating: matcher.needles).deallocate()
    }
}
