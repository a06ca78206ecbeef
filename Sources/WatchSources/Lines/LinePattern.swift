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
        if let problem = RegexBudget.problem(in: extended) {
            throw LinePatternError(pattern: pattern, reason: problem)
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
