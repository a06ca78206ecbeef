/// How error messages show a path or a command name that may hold spaces,
/// quotes, newlines or other control characters: unambiguously, and on the
/// one line an error message gets.
///
///     Quoted.path("/var/log/app.log")    // /var/log/app.log
///     Quoted.path("my logs/a\nb.log")    // 'my logs/a\nb.log'
public enum Quoted {
    /// `text` as it is when plain, else in single quotes with newlines,
    /// tabs and other control characters escaped.
    public static func path(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "'" && $0.value != 0x7F }
        if plain { return text }
        var out = "'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "'": out += "\\'"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\x" + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "'"
    }
}
