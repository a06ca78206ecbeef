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
/// the environment's, else nothing.
package enum DotEnv {
    /// The variables of `text` in file order; `lookup` supplies `${NAME}`
    /// for names the file has not set. Throws `FILE:LINE: problem`.
    package static func parse(_ text: String, file: String, lookup: (String) -> String? = { _ in nil }) throws -> [(String, String)] {
        // The environment is C strings: a NUL would cut a value silently.
        if let nul = text.firstIndex(of: "\0") {
            let line = text[..<nul].reduce(1) { $1 == "\n" || $1 == "\r\n" ? $0 + 1 : $0 }
            throw InputError("\(Quoted.path(file)):\(line): NUL byte (a variable cannot hold one)")
        }
        var result: [(String, String)] = []
        var known: [String: String] = [:]
        let expand = { (name: String) -> String in known[name] ?? lookup(name) ?? "" }
        // "\r\n" is one Character: split on both line ends.
        var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }[...]
        var number = 0
        while let raw = lines.popFirst() {
            number += 1
            var rest = raw.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty || rest.first == "#" { continue }
            if rest.hasPrefix("export ") { rest = rest.dropFirst(7).drop { $0 == " " } }
            guard let equals = rest.firstIndex(of: "=") else {
                throw InputError("\(Quoted.path(file)):\(number): expected KEY=VALUE")
            }
            let key = String(rest[..<equals].reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            guard isName(key) else {
                throw InputError("\(Quoted.path(file)):\(number): bad variable name '\(Quoted.escaped(key))'")
            }
            var value = rest[rest.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
            let parsed: String
            switch value.first {
            case "'":
                value = value.dropFirst()
                guard let close = value.firstIndex(of: "'") else {
                    throw InputError("\(Quoted.path(file)):\(number): unterminated ' quote")
                }
                parsed = String(value[..<close])
            case "\"":
                // The value may go on over the next lines until its quote.
                var body = String(value.dropFirst())
                let start = number
                while !hasClosingQuote(body) {
                    guard let next = lines.popFirst() else {
                        throw InputError("\(Quoted.path(file)):\(start): unterminated \" quote")
                    }
                    number += 1
                    body += "\n" + next
                }
                parsed = try unescape(body, expand: expand, at: "\(Quoted.path(file)):\(start)")
            default:
                var plain = value[...]
                if let comment = plain.firstRange(of: " #") { plain = plain[..<comment.lowerBound] }
                let trimmed = String(plain.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
                parsed = substitute(trimmed, expand: expand)
            }
            known[key] = parsed
            result.append((key, parsed))
        }
        return result
    }

    /// A shell variable name: a letter or `_`, then letters, digits, `_`.
    package static func isName(_ text: some StringProtocol) -> Bool {
        guard let first = text.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return text.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }

    /// Whether a double-quoted body has its unescaped closing quote.
    private static func hasClosingQuote(_ body: String) -> Bool {
        var escaped = false
        for character in body {
            if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { return true }
        }
        return false
    }

    /// The double-quoted body up to its closing quote, escapes and
    /// `${NAME}` resolved; anything after the quote must be a comment.
    private static func unescape(_ body: String, expand: (String) -> String, at place: String) throws -> String {
        var out = ""
        var characters = body[...]
        while let character = characters.popFirst() {
            switch character {
            case "\\":
                guard let next = characters.popFirst() else { break }
                switch next {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "\"", "\\", "$": out.append(next)
                default: out.append("\\"); out.append(next)
                }
            case "\"":
                let after = characters.drop { $0 == " " || $0 == "\t" }
                guard after.isEmpty || after.first == "#" else {
                    throw InputError("\(place): unexpected text after the closing quote")
                }
                return out
            case "$" where characters.first == "{":
                guard let close = characters.firstIndex(of: "}") else {
                    out.append(character)
                    continue
                }
                out += expand(String(characters[characters.index(after: characters.startIndex)..<close]))
                characters = characters[characters.index(after: close)...]
            default:
                out.append(character)
            }
        }
        return out
    }

    /// `${NAME}` replaced in an unquoted value.
    private static func substitute(_ value: String, expand: (String) -> String) -> String {
        guard value.contains("${") else { return value }
        var out = ""
        var rest = value[...]
        while let open = rest.firstRange(of: "${") {
            out += rest[..<open.lowerBound]
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: "}") else {
                out += rest[open.lowerBound...]
                return out
            }
            out += expand(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return out + rest
    }
}
