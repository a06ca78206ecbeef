/// A `[…]` of a glob: the characters it lists one by one, as ranges
/// (`a-z`) and by POSIX name (`[:alpha:]`), possibly negated (`[!…]` or
/// `[^…]`). Members are Unicode scalars in rwatch's syntax and bytes in
/// gitignore's (git compares bytes); POSIX names cover ASCII only, as in
/// git's C locale.
struct GlobCharacterClass: Sendable, Hashable {
    /// The POSIX character class names git accepts.
    enum Named: String, Sendable, Hashable, CaseIterable {
        case alnum, alpha, blank, cntrl, digit, graph, lower, print, punct, space, upper, xdigit

        func contains(_ value: UInt32) -> Bool {
            guard value < 0x80 else { return false }
            let c = UInt8(value)
            let isDigit = (0x30...0x39).contains(c)
            let isUpper = (0x41...0x5A).contains(c)
            let isLower = (0x61...0x7A).contains(c)
            switch self {
            case .alnum: return isDigit || isUpper || isLower
            case .alpha: return isUpper || isLower
            case .blank: return c == 0x20 || c == 0x09
            case .cntrl: return c < 0x20 || c == 0x7F
            case .digit: return isDigit
            case .graph: return (0x21...0x7E).contains(c)
            case .lower: return isLower
            case .print: return (0x20...0x7E).contains(c)
            case .punct: return (0x21...0x7E).contains(c) && !(isDigit || isUpper || isLower)
            case .space: return c == 0x20 || (0x09...0x0D).contains(c)
            case .upper: return isUpper
            case .xdigit: return isDigit || (0x41...0x46).contains(c) || (0x61...0x66).contains(c)
            }
        }
    }

    /// Members listed one by one (`[abc]`), kept apart from the ranges
    /// because git's case folding treats the two differently.
    var members: [UInt32] = []
    var ranges: [ClosedRange<UInt32>] = []
    var named: [Named] = []
    var negated = false

    /// Whether the character (or byte) `value` is in the class.
    func contains(_ value: UInt32) -> Bool {
        let listed = members.contains(value) || ranges.contains { $0.contains(value) } || named.contains { $0.contains(value) }
        return listed != negated
    }

    /// Whether the byte `value`, already folded to lower case, is in the
    /// class as git's wildmatch decides under `WM_CASEFOLD`
    /// (`core.ignorecase`): a member listed alone is compared with the
    /// folded byte as written (so `[A]` matches neither `a` nor `A`, as in
    /// git), a range also takes the byte's upper-case form (`[A-Z]`
    /// matches `a`), and `[:upper:]` and `[:lower:]` take either case.
    func containsFolded(_ value: UInt32) -> Bool {
        let isLetter = (0x61...0x7A).contains(value)
        var listed = members.contains(value) || ranges.contains { $0.contains(value) || (isLetter && $0.contains(value - 0x20)) }
        if !listed {
            listed = named.contains { name in
                switch name {
                case .upper, .lower: return isLetter || name.contains(value)
                default: return name.contains(value)
                }
            }
        }
        return listed != negated
    }

    /// Why a class could not be read.
    enum Problem: Error {
        case unclosed
        case reversedRange
        case unknownName(String)
    }

    /// Reads the class whose `[` is at `open`; returns it and the index after its `]`.
    /// With `unicode`, members are UTF-8 characters, else bytes. A reversed
    /// range is an error only when `strictRanges` (git takes it as empty).
    static func parse(_ bytes: [UInt8], open: Int, unicode: Bool, strictRanges: Bool) throws(Problem) -> (GlobCharacterClass, next: Int) {
        var result = GlobCharacterClass()
        var i = open + 1
        if i < bytes.count, bytes[i] == UInt8(ascii: "!") || bytes[i] == UInt8(ascii: "^") {
            result.negated = true
            i += 1
        }
        var first = true
        while true {
            guard i < bytes.count else { throw .unclosed }
            if bytes[i] == UInt8(ascii: "]"), !first { return (result, i + 1) }
            first = false
            if bytes[i] == UInt8(ascii: "["), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ":") {
                // `[:name:]` up to the first `]`; without a `:` before it, the `[` is an ordinary member.
                guard let close = bytes[(i + 2)...].firstIndex(of: UInt8(ascii: "]")) else { throw .unclosed }
                if close - 1 >= i + 2, bytes[close - 1] == UInt8(ascii: ":") {
                    let name = String(decoding: bytes[(i + 2)..<(close - 1)], as: UTF8.self)
                    guard let named = Named(rawValue: name) else { throw .unknownName(name) }
                    result.named.append(named)
                    i = close + 1
                    continue
                }
            }
            let low = try member(bytes, &i, unicode: unicode)
            if i + 1 < bytes.count, bytes[i] == UInt8(ascii: "-"), bytes[i + 1] != UInt8(ascii: "]") {
                i += 1
                let high = try member(bytes, &i, unicode: unicode)
                if low <= high {
                    result.ranges.append(low...high)
                } else if strictRanges {
                    throw .reversedRange
                }
            } else {
                result.members.append(low)
            }
        }
    }

    /// One member at `i` (a `\`-escaped one included); moves `i` past it.
    private static func member(_ bytes: [UInt8], _ i: inout Int, unicode: Bool) throws(Problem) -> UInt32 {
        if bytes[i] == UInt8(ascii: "\\") {
            i += 1
            guard i < bytes.count else { throw .unclosed }
        }
        let (value, length) = GlobText.character(bytes, at: i, unicode: unicode)
        i += length
        return value
    }
}

/// Reading characters out of UTF-8 bytes, for `?` and `[…]`.
enum GlobText {
    /// The character at `index` and its length in bytes: with `unicode`, a
    /// whole UTF-8 sequence (a byte that starts none counts alone, as
    /// 0xDC00 + byte, the way PEP 383 escapes it); else one byte.
    @inline(__always)
    static func character<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at index: Bytes.Index, unicode: Bool) -> (UInt32, Int)
        where Bytes.Index == Int
    {
        let lead = bytes[index]
        guard unicode, lead >= 0x80 else { return (UInt32(lead), 1) }
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(lead & 0x07)
        default: return (0xDC00 + UInt32(lead), 1)
        }
        guard index + length <= bytes.endIndex else { return (0xDC00 + UInt32(lead), 1) }
        for offset in 1..<length {
            let next = bytes[index + offset]
            guard next & 0xC0 == 0x80 else { return (0xDC00 + UInt32(lead), 1) }
            value = value << 6 | UInt32(next & 0x3F)
        }
        // Overlong and out-of-range forms are not characters.
        let smallest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= smallest, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else {
            return (0xDC00 + UInt32(lead), 1)
        }
        return (value, length)
    }
}
