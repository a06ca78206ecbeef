/// What `LinePattern` refuses before glibc's `regcomp` sees a pattern,
/// because glibc would take seconds, minutes or gigabytes over it: a short
/// pattern can ask for that, and `rwatch tail --grep` would sit still.
///
/// glibc copies what a repetition repeats (`x+` is `xx*`, `x{3}` is
/// `xxx`, `x{0,3}` nests three optional copies) and then computes, for
/// every node, the nodes it reaches without reading a byte; optional
/// copies and repetitions nested in repetitions make that work grow
/// quadratically and worse (`(a?){2000}` takes 0.3 s, `a?++++++++` 17 ms
/// and one more `+` four times that, `a{0,30}{0,30}{0,30}` 21 s). So a
/// pattern is refused when:
/// - its repetitions expanded make more than `sizeLimit` nodes;
/// - more than `optionalLimit` of those nodes are optional copies;
/// - repetitions nest more than `depthLimit` deep (`((a+)b)*` is 2);
/// - two repetition operators follow one another (`a+*`, `a?+`,
///   `a{2}{3}`): as Go's and RE2's syntax, write one or group;
/// - it has a back-reference (`\1`): glibc matches those by trying every
///   split of the line, so a log line could take exponential time.
///
/// Patterns people filter logs with stay far inside: `x{32767}`,
/// `([0-9]{1,3}\.){3}[0-9]{1,3}`, `(GET|POST) /api/v[0-9]+`.
enum RegexBudget {
    /// Room for the largest single interval POSIX allows (`x{32767}`) and
    /// then some.
    static let sizeLimit = 100_000
    /// Enough for `(a?){1000}` or `(x{0,30}){0,30}`.
    static let optionalLimit = 1_000
    static let depthLimit = 2

    /// Why `pattern` (ERE bytes, `\d` already rewritten) is refused, or nil.
    static func problem(in pattern: [UInt8]) -> String? {
        var scan = Scan(pattern: pattern)
        var cost = scan.alternation()
        // A `)` with no `(` ends no group: count on past it.
        while scan.problem == nil, scan.index < pattern.count {
            scan.index += 1
            cost = cost.then(scan.alternation()).then(.byte)
        }
        if let problem = scan.problem { return problem }
        if cost.size > sizeLimit { return "too large once its repetitions are expanded (over \(sizeLimit) copies)" }
        if cost.optional > optionalLimit {
            return "too many optional copies once its repetitions are expanded (over \(optionalLimit)); use fewer or smaller counts"
        }
        if cost.depth > depthLimit { return "repetitions nested more than \(depthLimit) deep" }
        return nil
    }

    /// What a part of the pattern costs once expanded: its nodes, how many
    /// of them are optional copies, how deep repetitions nest in it. Sums
    /// and products saturate just past the limits, so they cannot overflow.
    struct Cost {
        var size: Int
        var optional: Int
        var depth: Int

        static let byte = Cost(size: 1, optional: 0, depth: 0)
        static let empty = Cost(size: 0, optional: 0, depth: 0)

        /// This part followed by `next` (or beside it, as an alternative).
        func then(_ next: Cost) -> Cost {
            Cost(size: Self.add(size, next.size), optional: Self.add(optional, next.optional), depth: max(depth, next.depth))
        }

        /// `copies` copies, `optionalCopies` of them optional, under one
        /// more level of repetition.
        func repeated(copies: Int, optionalCopies: Int) -> Cost {
            let required = copies - optionalCopies
            return Cost(
                size: Self.add(Self.times(size, copies), 1),
                optional: Self.add(Self.times(optional, required), Self.times(size, optionalCopies)),
                depth: depth + 1
            )
        }

        private static let cap = RegexBudget.sizeLimit + 1
        private static func add(_ a: Int, _ b: Int) -> Int { min(a + b, cap) }
        private static func times(_ a: Int, _ b: Int) -> Int {
            let (product, overflow) = a.multipliedReportingOverflow(by: b)
            return overflow ? cap : min(product, cap)
        }
    }

    /// A recursive descent over the ERE, adding up costs.
    private struct Scan {
        let pattern: [UInt8]
        var index = 0
        var problem: String?

        init(pattern: [UInt8]) { self.pattern = pattern }

        /// Branches separated by `|`, up to a `)` or the end.
        mutating func alternation() -> Cost {
            var total = Cost.empty
            while problem == nil, index < pattern.count, pattern[index] != UInt8(ascii: ")") {
                if pattern[index] == UInt8(ascii: "|") {
                    index += 1
                    total = total.then(.byte)
                    continue
                }
                total = total.then(piece())
            }
            return total
        }

        /// One atom and the repetition operator after it.
        mutating func piece() -> Cost {
            var cost: Cost
            switch pattern[index] {
            case UInt8(ascii: "("):
                index += 1
                cost = alternation().then(.byte)
                if index < pattern.count { index += 1 }  // the `)`
            case UInt8(ascii: "["):
                index += RequiredLiteral.bracketLength(pattern, from: index)
                cost = .byte
            case UInt8(ascii: "\\"):
                if index + 1 < pattern.count, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(pattern[index + 1]) {
                    problem = "back-references (\\\(Character(Unicode.Scalar(pattern[index + 1])))) are not supported: they can take exponential time on a long line"
                }
                index = min(index + 2, pattern.count)
                cost = .byte
            default:
                index += 1
                cost = .byte
            }
            guard let (copies, optionalCopies, width) = repetition(at: index) else { return cost }
            index += width
            if let (_, _, next) = repetition(at: index) {
                let operators = String(decoding: pattern[(index - width)..<(index + next)], as: UTF8.self)
                problem = "two repetition operators in a row ('\(operators)'): write one, or group what repeats"
            }
            return cost.repeated(copies: copies, optionalCopies: optionalCopies)
        }

        /// The repetition operator at `start`: how many copies it makes, how
        /// many of those are optional, and its width; nil when there is none
        /// (a `{` that is no interval is a plain byte).
        func repetition(at start: Int) -> (Int, Int, Int)? {
            guard start < pattern.count else { return nil }
            switch pattern[start] {
            case UInt8(ascii: "*"), UInt8(ascii: "?"): return (1, 1, 1)
            case UInt8(ascii: "+"): return (2, 1, 1)
            case UInt8(ascii: "{"): return interval(from: start)
            default: return nil
            }
        }

        /// `{m}` (m copies), `{m,}` (m, then one optional that repeats) or
        /// `{m,n}` (n, of which n - m optional) at `start`, and its width.
        func interval(from start: Int) -> (Int, Int, Int)? {
            let cap = RegexBudget.sizeLimit + 1
            var index = start + 1
            var low: Int?
            var value = 0
            var digits = 0
            while index < pattern.count {
                let byte = pattern[index]
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    value = min(value * 10 + Int(byte - UInt8(ascii: "0")), cap)
                    digits += 1
                } else if byte == UInt8(ascii: ","), low == nil {
                    low = digits > 0 ? value : 0
                    value = 0
                    digits = 0
                } else if byte == UInt8(ascii: "}") {
                    let width = index + 1 - start
                    guard let low else { return digits > 0 ? (value, 0, width) : nil }
                    if digits == 0 { return (low + 1, 1, width) }
                    return (max(low, value), max(0, value - low), width)
                } else {
                    return nil
                }
                index += 1
            }
            return nil
        }
    }
}
