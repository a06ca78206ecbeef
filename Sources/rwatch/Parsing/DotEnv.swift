import WatchSources

/// `--env-file FILE`: variables in the dotenv syntax that docker, compose
/// and python-dotenv read.
///
///     # a comment
///     export PORT=8080
///     NAME='kept $literally'
///     GREETING="hello\nworld ${NAME}"
///     PLAIN=value   # comments end an unquoted value
///
/// One `KEY=VALUE` a line, an optional `export `, blank lines and `#`
/// comments. Single quotes keep everything literally; double quotes may
/// span lines and know `\n`, `\t`, `\"`, `\\` and `\$`; unquoted values
/// end at ` #` and lose surrounding blanks. `${NAME}` in a double-quoted
/// or unquoted value is replaced by an earlier variable of the file, else
/// the environment's, else nothing. The file is read as Unicode scalars,
/// not characters: a quote or backslash followed by a combining mark is
/// still a quote or a backslash.
enum DotEnv {
    private typealias Scalars = ArraySlice<Unicode.Scalar>

    /// The variables of `text` in file order; `lookup` supplies `${NAME}`
    /// for names the file has not set. Throws `FILE:LINE: problem`.
    static func parse(_ text: String, file: String, lookup: (String) -> String? = { _ in nil }) throws -> [(String, String)] {
        let scalars = Array(text.unicodeScalars)
        // The environment is C strings: a NUL would cut a value silently.
        if let nul = scalars.firstIndex(of: "\0") {
            let line = scalars[..<nul].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            throw RWatchError("\(Quoted.path(file)):\(line): NUL byte (a variable cannot hold one)")
        }
        var result: [(String, String)] = []
        var known: [String: String] = [:]
        let expand = { (name: String) -> String in known[name] ?? lookup(name) ?? "" }
        var lines = Self.lines(scalars)[...]
        var number = 0
        while let raw = lines.popFirst() {
            number += 1
            var rest = raw.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty || rest.first == "#" { continue }
            if rest.starts(with: "export ".unicodeScalars) { rest = rest.dropFirst(7).drop { $0 == " " } }
            guard let equals = rest.firstIndex(of: "=") else {
                throw RWatchError("\(Quoted.path(file)):\(number): expected KEY=VALUE")
            }
            let key = string(trimmingTrailingBlanks(rest[..<equals]))
            guard isName(key) else {
                throw RWatchError("\(Quoted.path(file)):\(number): bad variable name '\(Quoted.escaped(key))'")
            }
            var value = rest[(equals + 1)...].drop { $0 == " " || $0 == "\t" }
            let parsed: String
            switch value.first {
            case "'":
                value = value.dropFirst()
                guard let close = value.firstIndex(of: "'") else {
                    throw RWatchError("\(Quoted.path(file)):\(number): unterminated ' quote")
                }
                parsed = string(value[..<close])
            case "\"":
                // The value may go on over the next lines until its quote.
                var body = Array(value.dropFirst())
                let start = number
                while !hasClosingQuote(body[...]) {
                    guard let next = lines.popFirst() else {
                        throw RWatchError("\(Quoted.path(file)):\(start): unterminated \" quote")
                    }
                    number += 1
                    body.append("\n")
                    body += next
                }
                parsed = try unescape(body[...], expand: expand, at: "\(Quoted.path(file)):\(start)")
            default:
                var plain = value
                if let comment = firstIndex(of: " #", in: plain) { plain = plain[..<comment] }
                parsed = substitute(trimmingTrailingBlanks(plain), expand: expand)
            }
            known[key] = parsed
            result.append((key, parsed))
        }
        return result
    }

    /// A shell variable name: a letter or `_`, then letters, digits, `_`.
    static func isName(_ text: some StringProtocol) -> Bool {
        guard let first = text.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return text.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }

    /// The lines of `scalars`: split at `\n`, a `\r` before it dropped.
    private static func lines(_ scalars: [Unicode.Scalar]) -> [Scalars] {
        var lines = scalars.split(separator: "\n", omittingEmptySubsequences: false)
        for index in lines.indices.dropLast() where lines[index].last == "\r" {
            lines[index] = lines[index].dropLast()
        }
        return lines
    }

    private static func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    private static func trimmingTrailingBlanks(_ scalars: Scalars) -> Scalars {
        var end = scalars.endIndex
        while end > scalars.startIndex, scalars[end - 1] == " " || scalars[end - 1] == "\t" { end -= 1 }
        return scalars[..<end]
    }

    /// Where `needle` (ASCII) first starts in `scalars`.
    private static func firstIndex(of needle: String, in scalars: Scalars) -> Int? {
        let needle = Array(needle.unicodeScalars)
        guard scalars.count >= needle.count else { return nil }
        return (scalars.startIndex...(scalars.endIndex - needle.count)).first { start in
            scalars[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    /// Whether a double-quoted body has its unescaped closing quote.
    private static func hasClosingQuote(_ body: Scalars) -> Bool {
        var escaped = false
        for scalar in body {
            if escaped { escaped = false } else if scalar == "\\" { escaped = true } else if scalar == "\"" { return true }
        }
        return false
    }

    /// The double-quoted body up to its closing quote, escapes and
    /// `${NAME}` resolved; anything after the quote must be a comment.
    private static func unescape(_ body: Scalars, expand: (String) -> String, at place: String) throws -> String {
        var out = String.UnicodeScalarView()
        var rest = body
        while let scalar = rest.popFirst() {
            switch scalar {
            case "\\":
                guard let next = rest.popFirst() else { break }
                switch next {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "\"", "\\", "$": out.append(next)
                default: out.append("\\"); out.append(next)
                }
            case "\"":
                let after = rest.drop { $0 == " " || $0 == "\t" }
                guard after.isEmpty || after.first == "#" else {
                    throw RWatchError("\(place): unexpected text after the closing quote")
                }
                return String(out)
            case "$" where rest.first == "{":
                guard let close = rest.firstIndex(of: "}") else {
                    out.append(scalar)
                    continue
                }
                out.append(contentsOf: expand(string(rest[(rest.startIndex + 1)..<close])).unicodeScalars)
                rest = rest[(close + 1)...]
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `${NAME}` replaced in an unquoted value.
    private static func substitute(_ value: Scalars, expand: (String) -> String) -> String {
        var out = String.UnicodeScalarView()
        var rest = value
        while let open = firstIndex(of: "${", in: rest) {
            out.append(contentsOf: rest[..<open])
            let after = rest[(open + 2)...]
            guard let close = after.firstIndex(of: "}") else {
                out.append(contentsOf: rest[open...])
                return String(out)
            }
            out.append(contentsOf: expand(string(after[..<close])).unicodeScalars)
            rest = after[(close + 1)...]
        }
        out.append(contentsOf: rest)
        return String(out)
    }
}
