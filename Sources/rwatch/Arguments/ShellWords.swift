/// A command given as one string (`--build 'cargo build --release'`) split
/// into words as a shell would split it, without running one: blanks
/// separate words, single quotes keep everything, double quotes keep
/// everything but `\"` and `\\`, a backslash outside quotes keeps the next
/// byte. No expansion of any kind (`$HOME`, `*`, `~` stay as typed): the
/// words are bytes, and the string reaches a shell only under `--shell`.
enum ShellWords {
    /// What cannot be split.
    enum Problem: Error, Equatable, CustomStringConvertible {
        case unclosedQuote(Character)
        case empty

        var description: String {
            switch self {
            case .unclosedQuote(let quote): "unclosed \(quote) quote"
            case .empty: "no command"
            }
        }
    }

    static func split(_ bytes: [UInt8]) throws(Problem) -> [[UInt8]] {
        var words: [[UInt8]] = []
        var word: [UInt8]?
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"):
                if let finished = word { words.append(finished) }
                word = nil
            case UInt8(ascii: "'"):
                guard let end = bytes[index...].firstIndex(of: UInt8(ascii: "'")) else { throw .unclosedQuote("'") }
                word = (word ?? []) + bytes[index..<end]
                index = end + 1
            case UInt8(ascii: "\""):
                var quoted: [UInt8] = []
                while true {
                    guard index < bytes.count else { throw .unclosedQuote("\"") }
                    let next = bytes[index]
                    index += 1
                    if next == UInt8(ascii: "\"") { break }
                    if next == UInt8(ascii: "\\"), index < bytes.count, [UInt8(ascii: "\""), UInt8(ascii: "\\")].contains(bytes[index]) {
                        quoted.append(bytes[index])
                        index += 1
                    } else {
                        quoted.append(next)
                    }
                }
                word = (word ?? []) + quoted
            case UInt8(ascii: "\\") where index < bytes.count:
                word = (word ?? []) + [bytes[index]]
                index += 1
            default:
                word = (word ?? []) + [byte]
            }
        }
        if let finished = word { words.append(finished) }
        if words.isEmpty { throw .empty }
        return words
    }
}
