// DotEnv (`--env-file`): the input is a whole env file. Parsing either
// throws or gives variables whose names are shell names (no `=`, no NUL)
// and whose values hold no NUL (execve would cut them there silently);
// and the variables, written back as `KEY="escaped value"` lines, parse to
// exactly the same list.
import FuzzSupport
import WatchSources

fuzz { data, size in
    let text = String(decoding: bytes(data, size), as: UTF8.self)
    guard let variables = try? DotEnv.parse(text, file: "fuzz.env") else { return 0 }
    var written = ""
    for (key, value) in variables {
        check(DotEnv.isName(key) && !key.contains("=") && !key.utf8.contains(0), "bad name \(key.debugDescription)")
        check(!value.utf8.contains(0), "\(key)'s value holds a NUL: \(value.debugDescription)")
        written += "\(key)=\"\(escaped(value))\"\n"
    }
    do {
        let again = try DotEnv.parse(written, file: "fuzz.env")
        check(again.map(\.0) == variables.map(\.0) && again.map(\.1) == variables.map(\.1),
              "\(variables) written as \(written.debugDescription) reads back as \(again)")
    } catch {
        check(false, "\(variables) written as \(written.debugDescription) does not parse: \(error)")
    }
    return 0
}

/// `value` inside double quotes: `\`, `"`, `$` and line ends escaped.
func escaped(_ value: String) -> String {
    var out = ""
    for scalar in value.unicodeScalars {
        switch scalar {
        case "\\", "\"", "$": out += "\\\(scalar)"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}
