/// A command as status lines name it: the words the user gave, shell-quoted
/// where a shell would need quotes, control characters escaped (one line,
/// nothing raw reaches the terminal), long words and long commands cut with
/// `…`. Never a word guessed from inside a script.
///
///     CommandName.display(["python3", "-c", "n=input('name? ')"])   // python3 -c 'n=input('\''name? '\'')'
///     CommandName.display(["sh", "-c", "echo hello there; sleep 2"]) // sh -c 'echo hello there; sleep 2'
///     CommandName.display(["make && ./run"], shell: "sh")            // sh -c 'make && ./run'
package enum CommandName {
    /// A word longer than this keeps its start and end around `…`.
    static let wordLimit = 40
    /// Words after this many characters are left out (` …`).
    static let lineLimit = 72

    /// The command line for `arguments`, as run by `shell -c` when a shell is given.
    package static func display(_ arguments: [String], shell: String? = nil) -> String {
        let words = shell.map { [$0, "-c", arguments.joined(separator: " ")] } ?? arguments
        var line = ""
        for (index, word) in words.enumerated() {
            let shown = quote(shorten(word))
            if index > 0 && line.count + 1 + shown.count > lineLimit {
                return line + " …"
            }
            line += (index > 0 ? " " : "") + shown
        }
        return line
    }

    /// `display(_:shell:)` for words as the child gets them: a word that is
    /// not UTF-8 shows its other bytes as `\xNN` (`Quoted.escaped`), where
    /// its text would show U+FFFD.
    static func display(words: [CommandWord], shell: String? = nil) -> String {
        if words.allSatisfy({ String(validating: $0.bytes, as: UTF8.self) != nil }) {
            return display(words.map(\.text), shell: shell)
        }
        let joined = Array(words.map(\.bytes).joined(separator: [UInt8(ascii: " ")]))
        let all: [[UInt8]] = shell.map { [Array($0.utf8), Array("-c".utf8), joined] } ?? words.map(\.bytes)
        var line = ""
        for (index, bytes) in all.enumerated() {
            let shown: String
            if let text = String(validating: bytes, as: UTF8.self) {
                shown = quote(shorten(text))
            } else {
                shown = "'" + Quoted.escaped(bytes: bytes).replacingOccurrences(of: "'", with: "'\\''") + "'"
            }
            if index > 0 && line.count + 1 + shown.count > lineLimit {
                return line + " …"
            }
            line += (index > 0 ? " " : "") + shown
        }
        return line
    }

    /// `word` with its middle cut out when it is long.
    static func shorten(_ word: String) -> String {
        guard word.count > wordLimit else { return word }
        let head = word.prefix(wordLimit * 2 / 3)
        let tail = word.suffix(wordLimit / 3 - 1)
        return head + "…" + tail
    }

    /// `word` as is when a shell would take it so, else in single quotes;
    /// control characters escaped either way (`\e`, `\n`).
    static func quote(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".", "/", ":", "=", "@", "%", "+", ",", "…", "{", "}": return true
            default: return scalar.value > 0x7F && scalar.properties.generalCategory != .control
            }
        }
        if plain { return Quoted.escaped(word) }
        return "'" + Quoted.escaped(word).replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
