/// How big an extended regular expression gets once glibc's `regcomp` has
/// expanded its repetitions: it copies the repeated part for each count of
/// an interval (`a{1000}` is a thousand `a`s) and doubles it for `+`
/// (`x+` is `xx*`), so nested or stacked repetitions multiply
/// (`(a{1000}){1000}` is a million, `x++++…` doubles per `+`). A short
/// pattern can ask for gigabytes; `LinePattern` refuses one over `limit`
/// before compiling it.
///
/// An upper estimate, in nodes: every byte, bracket expression and group
/// counts one, and a repetition multiplies what it repeats. Saturates at
/// `limit + 1`, so it cannot overflow.
enum RepetitionBound {
    /// Room for the largest single interval POSIX allows (`x{32767}`) and
    /// then some; far below what would take memory to notice.
    static let limit = 100_000

    /// The estimated size of `pattern` (ERE bytes, `\d` already rewritten).
    static func size(of pattern: [UInt8]) -> Int {
        var index = 0
        var total = alternation(pattern, &index)
        // A `)` with no `(` ends no group: count on past it.
        while index < pattern.count {
            index += 1
            total = add(total, add(alternation(pattern, &index), 1))
        }
        return total
    }

    private static func add(_ a: Int, _ b: Int) -> Int { min(a + b, limit + 1) }
    private static func times(_ a: Int, _ b: Int) -> Int {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? limit + 1 : min(product, limit + 1)
    }

    /// Branches separated by `|`, up to a `)` or the end.
    private static func alternation(_ pattern: [UInt8], _ index: inout Int) -> Int {
        var total = 0
        while index < pattern.count, pattern[index] != UInt8(ascii: ")") {
            if pattern[index] == UInt8(ascii: "|") {
                index += 1
                total = add(total, 1)
                continue
            }
            total = add(total, piece(pattern, &index))
        }
        return total
    }

    /// One atom and the repetition operators after it.
    private static func piece(_ pattern: [UInt8], _ index: inout Int) -> Int {
        var size: Int
        switch pattern[index] {
        case UInt8(ascii: "("):
            index += 1
            size = add(alternation(pattern, &index), 1)
            if index < pattern.count { index += 1 }  // the `)`
        case UInt8(ascii: "["):
            index += RequiredLiteral.bracketLength(pattern, from: index)
            size = 1
        case UInt8(ascii: "\\"):
            index = min(index + 2, pattern.count)
            size = 1
        default:
            index += 1
            size = 1
        }
        while index < pattern.count {
            switch pattern[index] {
            case UInt8(ascii: "*"), UInt8(ascii: "?"):
                index += 1
                size = add(size, 1)
            case UInt8(ascii: "+"):
                index += 1
                size = add(times(size, 2), 1)
            case UInt8(ascii: "{"):
                guard let (count, width) = interval(pattern, from: index) else { return size }
                index += width
                size = add(times(size, max(count, 1)), 1)
            default:
                return size
            }
        }
        return size
    }

    /// The copies `{m}`, `{m,}` (m + 1) or `{m,n}` (n) at `start` makes, and
    /// its width; nil when it is not an interval.
    private static func interval(_ pattern: [UInt8], from start: Int) -> (Int, Int)? {
        var index = start + 1
        var numbers: [Int] = []
        var digits = 0
        var value = 0
        var comma = false
        while index < pattern.count {
            let byte = pattern[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                value = min(value * 10 + Int(byte - UInt8(ascii: "0")), limit + 1)
                digits += 1
            } else if byte == UInt8(ascii: ","), !comma {
                numbers.append(digits > 0 ? value : 0)
                comma = true
                value = 0
                digits = 0
            } else if byte == UInt8(ascii: "}") {
                if digits > 0 { numbers.append(value) } else if comma { numbers.append(numbers[0] + 1) } else { return nil }
                return (numbers.max() ?? 1, index + 1 - start)
            } else {
                return nil
            }
            index += 1
        }
        return nil
    }
}
