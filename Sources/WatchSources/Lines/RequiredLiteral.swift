/// The longest run of plain bytes that every match of an extended regular
/// expression must contain: what `LinePattern` looks for with `memmem`
/// before it runs the regex engine, as grep does. Most lines of a log do not
/// contain it, and those never reach `regexec`.
///
///     status=5[0-9]{2} took=    →  "status=5" (" took=" is shorter)
///     colou?r                   →  "colo"
///
/// With alternatives at the top (`error|warn`), `forEachAlternative` gives
/// one per alternative, and a line must contain one of them.
///
/// Conservative by construction: anything it does not fully understand
/// (groups, brackets, escapes other than escaped punctuation, bytes beyond
/// ASCII, intervals) ends the current run, and a byte followed by `*`, `?`
/// or `{` is left out. A wrong answer could only make the pre-filter drop a
/// line the regex would keep; a missing one only costs speed.
struct RequiredLiteral {
    /// The bytes; never empty.
    let bytes: [UInt8]
    /// True when the pattern is exactly these bytes, nothing else: then a
    /// found literal is a match and the regex engine is not needed.
    let isWholePattern: Bool

    /// One literal per top-level alternative of `pattern`, or nil when
    /// some alternative has no certain byte (then no line can be skipped).
    static func forEachAlternative(of pattern: [UInt8]) -> [RequiredLiteral]? {
        var literals: [RequiredLiteral] = []
        var start = 0
        var index = 0
        while index <= pattern.count {
            if index == pattern.count || pattern[index] == UInt8(ascii: "|") {
                guard let literal = RequiredLiteral(extendedRegex: Array(pattern[start..<index])) else { return nil }
                literals.append(literal)
                start = index + 1
                index += 1
                continue
            }
            switch pattern[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "["): index += bracketLength(pattern, from: index)
            case UInt8(ascii: "("):
                guard let length = groupLength(pattern, from: index) else { return nil }
                index += length
            default: index += 1
            }
        }
        return literals
    }

    /// The literal of `pattern`, or nil when no byte is certain.
    init?(extendedRegex pattern: [UInt8]) {
        var best: [UInt8] = []
        var run: [UInt8] = []
        var plain = true  // every token so far was a plain byte
        var index = 0
        func endRun() {
            if run.count > best.count { best = run }
            run = []
        }
        while index < pattern.count {
            guard let (literal, width) = Self.token(pattern, at: index) else { return nil }
            index += width
            let next = index < pattern.count ? pattern[index] : nil
            guard let literal else {
                plain = false
                endRun()
                continue
            }
            switch next {
            case UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "{"):
                // May be absent (or repeated a given number of times).
                plain = false
                endRun()
            case UInt8(ascii: "+"):
                // Present, but repeats may follow: the run ends after it.
                // Unless another operator makes the repeats optional
                // (`a+*` is `(a+)*`, `a+?` is `(a+)?`: no `a` needed).
                plain = false
                if !Self.repeatsMayBeAbsent(pattern, from: index) { run.append(literal) }
                endRun()
            default:
                run.append(literal)
            }
        }
        endRun()
        guard !best.isEmpty else { return nil }
        bytes = best
        isWholePattern = plain
    }

    /// The token at `index`: the byte it stands for when it is one plain
    /// byte, and how many bytes of the pattern it takes. Nil when it makes
    /// nothing certain (alternatives at the top, a malformed escape or group).
    private static func token(_ pattern: [UInt8], at index: Int) -> (literal: UInt8?, width: Int)? {
        let byte = pattern[index]
        switch byte {
        case UInt8(ascii: "|"):
            return nil  // alternatives at the top: nothing is certain
        case UInt8(ascii: "\\"):
            guard index + 1 < pattern.count else { return nil }
            let escaped = pattern[index + 1]
            return (escapable.contains(escaped) ? escaped : nil, 2)
        case UInt8(ascii: "["):
            return (nil, bracketLength(pattern, from: index))
        case UInt8(ascii: "("):
            guard let length = groupLength(pattern, from: index) else { return nil }
            return (nil, length)
        case UInt8(ascii: "{"):
            // An interval `{2,5}`: its digits are counts, not text.
            return (nil, (pattern[index...].firstIndex(of: UInt8(ascii: "}")) ?? pattern.count - 1) + 1 - index)
        case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"):
            return (nil, 1)
        default:
            return (byte < 0x80 ? byte : nil, 1)
        }
    }

    /// Whether the run of repetition operators at `index` (a `+` first)
    /// lets what they repeat be absent: any `*`, `?` or interval in it does
    /// (an interval may count from 0); only `+`s keep it present.
    private static func repeatsMayBeAbsent(_ pattern: [UInt8], from index: Int) -> Bool {
        var index = index
        while index < pattern.count {
            switch pattern[index] {
            case UInt8(ascii: "+"): index += 1
            case UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "{"): return true
            default: return false
            }
        }
        return false
    }

    /// Punctuation that a backslash makes plain in an ERE.
    private static let escapable = Set("^.[]$()|*+?{}\\/".utf8)

    /// The length of the bracket expression at `start` (`[a-z]`, `[]x]`,
    /// `[^[:digit:]]`), or the rest of the pattern if it never closes.
    static func bracketLength(_ pattern: [UInt8], from start: Int) -> Int {
        var index = start + 1
        if index < pattern.count && pattern[index] == UInt8(ascii: "^") { index += 1 }
        if index < pattern.count && pattern[index] == UInt8(ascii: "]") { index += 1 }
        while index < pattern.count {
            let byte = pattern[index]
            if byte == UInt8(ascii: "]") { return index + 1 - start }
            if byte == UInt8(ascii: "["), index + 1 < pattern.count,
               [UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: ".")].contains(pattern[index + 1]) {
                // `[:class:]`: skip to its closing `:]`.
                let kind = pattern[index + 1]
                index += 2
                while index + 1 < pattern.count && !(pattern[index] == kind && pattern[index + 1] == UInt8(ascii: "]")) {
                    index += 1
                }
                index += 2
                continue
            }
            index += 1
        }
        return pattern.count - start
    }

    /// The length of the parenthesized group at `start`, or nil when it
    /// does not close (the regex compiler reports that).
    private static func groupLength(_ pattern: [UInt8], from start: Int) -> Int? {
        var depth = 0
        var index = start
        while index < pattern.count {
            switch pattern[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "["): index += bracketLength(pattern, from: index)
            case UInt8(ascii: "("): depth += 1; index += 1
            case UInt8(ascii: ")"):
                depth -= 1
                index += 1
                if depth == 0 { return index - start }
            default: index += 1
            }
        }
        return nil
    }
}
