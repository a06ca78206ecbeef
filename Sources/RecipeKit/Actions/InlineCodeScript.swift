extension InlineCode {
    /// The first word that is code and holds a placeholder in a script
    /// that rwatch runs with `--shell`: a command of the script that runs
    /// code of its own (`sh -c "echo {}"` inside it), with that command's
    /// words. The script's own placeholders are positional parameters
    /// (`ShellPlaceholders`), but a nested shell would parse the name.
    static func find(inScript script: [UInt8]) -> (Finding, [[UInt8]])? {
        for command in simpleCommands(of: script) {
            let start = command.firstIndex { !isKeywordOrAssignment($0) } ?? command.count
            let words = Array(command[start...])
            if let finding = find(in: words) { return (finding, words) }
        }
        return nil
    }

    /// The simple commands of a POSIX shell script, each as its words with
    /// quotes removed: cut at `;`, `&`, `|`, newlines, parentheses and
    /// backquotes (a command substitution is a command of its own). Enough
    /// to see which program a word goes to, not a shell.
    static func simpleCommands(of script: [UInt8]) -> [[[UInt8]]] {
        var splitter = Splitter()
        var index = 0
        while index < script.count {
            let byte = script[index]
            index += 1
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"): splitter.endWord()
            case UInt8(ascii: "\n"), UInt8(ascii: ";"), UInt8(ascii: "&"), UInt8(ascii: "|"),
                 UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "`"):
                splitter.endCommand()
            case UInt8(ascii: "'"):
                let end = script[index...].firstIndex(of: UInt8(ascii: "'")) ?? script.count
                splitter.append(script[index..<end])
                index = min(end + 1, script.count)
            case UInt8(ascii: "\""):
                index = splitter.appendDoubleQuoted(script, from: index)
            case UInt8(ascii: "\\"):
                if index < script.count { splitter.append([script[index]]) }
                index += 1
            case UInt8(ascii: "$") where index < script.count && script[index] == UInt8(ascii: "("):
                splitter.endCommand()
                index += 1
            default:
                splitter.append([byte])
            }
        }
        splitter.endCommand()
        return splitter.commands
    }

    /// A reserved word or `NAME=value` before a command's program.
    private static func isKeywordOrAssignment(_ word: [UInt8]) -> Bool {
        let keywords: Set<String> = ["{", "}", "!", "if", "then", "else", "elif", "do", "while", "until"]
        if keywords.contains(String(decoding: word, as: UTF8.self)) { return true }
        guard let equals = word.firstIndex(of: UInt8(ascii: "=")), equals > 0 else { return false }
        return word[..<equals].allSatisfy { $0 == UInt8(ascii: "_") || ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Words and commands as the script is read.
    private struct Splitter {
        var commands: [[[UInt8]]] = []
        var words: [[UInt8]] = []
        var word: [UInt8]?

        mutating func append(_ bytes: some Collection<UInt8>) { word = (word ?? []) + bytes }

        mutating func endWord() {
            if let word { words.append(word) }
            word = nil
        }

        mutating func endCommand() {
            endWord()
            if !words.isEmpty { commands.append(words) }
            words = []
        }

        /// Reads a double-quoted string from `index` (after its quote);
        /// returns the index after its closing quote.
        mutating func appendDoubleQuoted(_ script: [UInt8], from start: Int) -> Int {
            var index = start
            var text: [UInt8] = []
            while index < script.count, script[index] != UInt8(ascii: "\"") {
                if script[index] == UInt8(ascii: "\\"), index + 1 < script.count,
                   "\"\\$`".utf8.contains(script[index + 1]) {
                    index += 1
                }
                text.append(script[index])
                index += 1
            }
            append(text)
            return min(index + 1, script.count)
        }
    }
}
