/// `{}` and `{+}` in a shell script, made positional parameters: the
/// paths reach the script as `$1` (or `"$@"`), never pasted into it.
///
///     cc -c {} -o {}.o         →  cc -c "${1}" -o "${1}".o
///     echo "changed: {}"       →  echo "changed: ${1}"
///     printf '%s\n' '{}'       →  printf '%s\n' ''"${1}"''
///     prettier --write {+}     →  prettier --write "$@"
///
/// A placeholder is quoted as its spot needs: outside quotes it becomes
/// `"${1}"`, inside double quotes `${1}` (already quoted), inside single
/// quotes the quote is closed around `"${1}"`. So a path with spaces,
/// quotes, `$`, a newline or a leading `-` stays one word, whatever the
/// script does around it. POSIX shells (sh, dash, bash, zsh, ksh) read it
/// so; a shell of another syntax (fish, nu) gets `$RWATCH_PATHS` instead.
enum ShellPlaceholders {
    /// `script` with `{}` and `{+}` made positional parameters, quoted as
    /// their spot in the script needs.
    static func substitute(_ script: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var quote = Quote.none
        var index = 0
        while index < script.count {
            let byte = script[index]
            if let (placeholder, parameter) = placeholder(at: index, in: script) {
                result += quote.wrap(parameter)
                index += placeholder
                continue
            }
            result.append(byte)
            index += 1
            switch (quote, byte) {
            case (.none, UInt8(ascii: "\\")), (.double, UInt8(ascii: "\\")):
                // The next byte is escaped: copied as it is.
                if index < script.count {
                    result.append(script[index])
                    index += 1
                }
            case (.none, UInt8(ascii: "'")): quote = .single
            case (.single, UInt8(ascii: "'")): quote = .none
            case (.none, UInt8(ascii: "\"")): quote = .double
            case (.double, UInt8(ascii: "\"")): quote = .none
            default: break
            }
        }
        return result
    }

    /// Every `placeholder` in `bytes` replaced by what `value` gives for it.
    static func replace(_ placeholder: [UInt8], in bytes: [UInt8], with value: (Int) -> [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        var count = 0
        while index < bytes.count {
            if bytes[index...].starts(with: placeholder) {
                result += value(count)
                count += 1
                index += placeholder.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    /// Where the script is, between quotes.
    private enum Quote {
        case none, single, double

        /// `parameter` (`${1}`, `$@`) as this spot needs it quoted.
        func wrap(_ parameter: [UInt8]) -> [UInt8] {
            let doubleQuoted = [UInt8(ascii: "\"")] + parameter + [UInt8(ascii: "\"")]
            switch self {
            case .none: return doubleQuoted
            case .double: return parameter
            case .single: return [UInt8(ascii: "'")] + doubleQuoted + [UInt8(ascii: "'")]
            }
        }
    }

    /// The length of the placeholder at `index` and the parameter it stands for.
    private static func placeholder(at index: Int, in script: [UInt8]) -> (Int, [UInt8])? {
        if script[index...].starts(with: CommandTemplate.eachPath) { return (2, Array("${1}".utf8)) }
        if script[index...].starts(with: CommandTemplate.allPaths) { return (3, Array("$@".utf8)) }
        return nil
    }
}
