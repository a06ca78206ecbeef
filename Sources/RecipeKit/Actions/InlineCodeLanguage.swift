extension InlineCode {
    /// How a program takes code on its command line, and which of its
    /// words that makes code.
    enum Language: Equatable {
        /// A POSIX shell: with `-c` among its options (alone or in a
        /// cluster: `-ec`), its first operand is the script.
        case posixShell
        /// Any other program with inline code (`CodeFlags`).
        case flagged(CodeFlags)

        /// The language of the program named `name`; nil for a program
        /// that takes no code on its command line (as far as rwatch knows).
        static func of(_ name: String) -> Language? {
            if posixShells.contains(name) { return .posixShell }
            if let flags = CodeFlags.byProgram[name] { return .flagged(flags) }
            // Versioned interpreters: python3.12, pypy3, perl5.36, lua5.4.
            for (prefix, flags) in CodeFlags.versioned where name.hasPrefix(prefix) {
                let version = name.dropFirst(prefix.count)
                if version.allSatisfy({ $0.isNumber || $0 == "." }) { return .flagged(flags) }
            }
            return nil
        }

        static let posixShells: Set<String> = [
            "sh", "bash", "rbash", "dash", "zsh", "ksh", "ksh93", "mksh", "lksh", "pdksh", "oksh", "ash", "hush",
            "yash", "posh",
        ]
        /// Options of the POSIX shells that take the next word as their value.
        static let shellValued: Set<String> = ["-o", "+o", "-O", "+O", "--rcfile", "--init-file"]

        /// The indices of the words of the program at `index` that it parses as code.
        func codeWords(in words: [[UInt8]], after index: Int) -> [Int] {
            switch self {
            case .posixShell: return Self.shellScript(in: words, after: index).map { [$0] } ?? []
            case .flagged(let flags): return flags.codeWords(in: words, after: index)
            }
        }

        /// The index of a POSIX shell's `-c` script.
        private static func shellScript(in words: [[UInt8]], after index: Int) -> Int? {
            var next = index + 1
            var command = false
            while next < words.count {
                let word = words[next]
                let text = String(decoding: word, as: UTF8.self)
                if text == "--" || text == "-" { next += 1; break }
                guard word.count > 1, word.first == UInt8(ascii: "-") || word.first == UInt8(ascii: "+") else { break }
                if shellValued.contains(text) { next += 2; continue }
                if !text.hasPrefix("--"), text.hasPrefix("-"), text.contains("c") { command = true }
                next += 1
            }
            return command && next < words.count ? next : nil
        }
    }

    /// Where a program other than a POSIX shell takes code: after a flag
    /// (`python3 -c CODE`, `perl -ne CODE`, `node --eval=CODE`), as its first
    /// operand (awk's and sed's program), or as every operand (`ssh host CMD…`).
    struct CodeFlags: Equatable {
        /// One-letter flags whose value is code, in the next word or
        /// attached, alone or ending a cluster (`-e`, `-ne`, `-eCODE`).
        var letters: Set<Character> = []
        /// Long flags whose value is code (`--eval CODE`, `--eval=CODE`).
        var long: Set<String> = []
        /// Options that take the next word as a value that is not code.
        var valued: Set<String> = []
        /// Options that give the program as a file: the operands are then data.
        var programFile: Set<String> = []
        /// What the operands are when no flag gave the code.
        var operands: Operands = .data
        /// Whether a code flag may come after an operand (`su USER -c CMD`).
        var flagsAfterOperands = false

        enum Operands: Equatable {
            /// Data (a script file and its arguments).
            case data
            /// The first operand is the program (awk, sed).
            case firstIsCode
            /// Every operand after the first `skip` is code (ssh, watch).
            case codeAfter(skip: Int)
        }

        static let byProgram: [String: CodeFlags] = [
            "fish": CodeFlags(letters: ["c", "C"], long: ["--command", "--init-command"]),
            "csh": CodeFlags(letters: ["c"]), "tcsh": CodeFlags(letters: ["c"]),
            "nu": CodeFlags(letters: ["c"], long: ["--commands"]),
            "elvish": CodeFlags(letters: ["c"]), "xonsh": CodeFlags(letters: ["c"]),
            "pwsh": CodeFlags(letters: ["c"], long: ["-Command", "-command", "-EncodedCommand"]),
            "perl": CodeFlags(letters: ["e", "E"], valued: ["-I", "-M", "-m"]),
            "ruby": CodeFlags(letters: ["e"], valued: ["-I", "-r", "-C"]),
            "node": node, "nodejs": node, "bun": node,
            "php": CodeFlags(letters: ["r", "B", "R", "E"], valued: ["-c", "-d", "-z"], programFile: ["-f"]),
            "lua": lua, "luajit": lua,
            "Rscript": CodeFlags(letters: ["e"]), "osascript": CodeFlags(letters: ["e"]),
            "awk": awk, "gawk": awk, "mawk": awk, "nawk": awk,
            "sed": sed, "gsed": sed,
            "ssh": CodeFlags(valued: ["-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o",
                                      "-p", "-Q", "-R", "-S", "-W", "-w", "-B"], operands: .codeAfter(skip: 1)),
            "watch": CodeFlags(valued: ["-n", "--interval", "-q", "--equexit"], programFile: ["-x", "--exec"],
                               operands: .codeAfter(skip: 0)),
            "su": CodeFlags(letters: ["c"], long: ["--command", "--session-command"],
                            valued: ["-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w"], flagsAfterOperands: true),
            "runuser": CodeFlags(letters: ["c"], long: ["--command"], valued: ["-u", "-s", "-g", "-G", "-w"],
                                 flagsAfterOperands: true),
            "flock": CodeFlags(letters: ["c"], long: ["--command"], valued: ["-w", "--timeout", "-E", "--conflict-exit-code"],
                               flagsAfterOperands: true),
            "script": CodeFlags(letters: ["c"], long: ["--command"], valued: ["-t", "-T", "-I", "-O", "-B", "-E", "-m"]),
        ]
        static let versioned: [(String, CodeFlags)] = [
            ("python", python), ("pypy", python), ("perl", byProgram["perl"]!), ("ruby", byProgram["ruby"]!),
            ("lua", lua), ("php", byProgram["php"]!),
        ]
        static let python = CodeFlags(letters: ["c"], valued: ["-W", "-X", "-m"])
        static let node = CodeFlags(letters: ["e", "p"], long: ["--eval", "--print"],
                                    valued: ["-r", "--require", "--import", "--loader", "-C", "--conditions"])
        static let lua = CodeFlags(letters: ["e"], valued: ["-l"])
        static let awk = CodeFlags(letters: ["e"], long: ["--source"], valued: ["-F", "-v", "--assign", "-i", "--include", "-l", "--load"],
                                   programFile: ["-f", "--file", "-e", "--source"], operands: .firstIsCode)
        /// GNU sed takes options after operands too (`sed 's/a/b/' f -i`).
        static let sed = CodeFlags(letters: ["e"], long: ["--expression"], valued: ["-l", "--line-length"],
                                   programFile: ["-f", "--file", "-e", "--expression"], operands: .firstIsCode,
                                   flagsAfterOperands: true)
    }
}

extension InlineCode.CodeFlags {
    /// The indices of the words that are code, for the program at `index`.
    func codeWords(in words: [[UInt8]], after index: Int) -> [Int] {
        var code: [Int] = []
        var operandIndices: [Int] = []
        var programGiven = false
        var next = index + 1
        var optionsEnded = false
        while next < words.count {
            let word = words[next]
            let text = String(decoding: word, as: UTF8.self)
            next += 1
            if optionsEnded || !InlineCode.isOption(word) {
                operandIndices.append(next - 1)
                if !flagsAfterOperands { optionsEnded = true }
                continue
            }
            if text == "--" { optionsEnded = true; continue }
            if programFile.contains(where: { text == $0 || text.hasPrefix($0 + "=") }) { programGiven = true }
            if valued.contains(text) {
                next += 1
            } else if long.contains(text) {
                if next < words.count { code.append(next) }
                next += 1
            } else if long.contains(where: { text.hasPrefix($0 + "=") }) {
                code.append(next - 1)
            } else if !text.hasPrefix("--"), let flag = text.dropFirst().firstIndex(where: letters.contains) {
                // A cluster: the flag's value is the rest of the word, or the next word.
                programGiven = true
                if text.index(after: flag) == text.endIndex {
                    if next < words.count { code.append(next) }
                    next += 1
                } else {
                    code.append(next - 1)
                }
            }
        }
        return code + operandCode(operandIndices, programGiven: programGiven)
    }

    private func operandCode(_ indices: [Int], programGiven: Bool) -> [Int] {
        switch operands {
        case .data: return []
        case .firstIsCode: return programGiven ? [] : Array(indices.prefix(1))
        case .codeAfter(let skip): return programGiven ? [] : Array(indices.dropFirst(skip))
        }
    }
}
