/// Where a command's words hold code that the program will parse, so that
/// a `{}` or `{+}` there would make a file name code: a name such as
/// `x$(touch PWNED).py` pasted into `sh -c 'echo {}'` runs `touch`.
///
///     sh -c 'echo {}'                          code: the script of sh's -c
///     env A=1 nice -n 5 bash -ec 'make {}'     code: past programs that run another
///     busybox sh -c 'cat {}'                   code
///     python3 -c 'print("{}")'                 code: an interpreter's inline program
///     awk '{ print "{}" }' data                code: awk's program
///     ssh host 'ls {}'                         code: the remote shell's command
///     sh -c 'echo "$1"' sh {}                  data: the script's argument
///     cc -c {} --out={}.o                      data: a compiler's arguments
///
/// The program is recognised by its name (the last component of its
/// path), after any of the programs that run the rest of the command
/// (`env`, `exec`, `nice`, `timeout`, `nohup`, `stdbuf`, `setsid`,
/// `ionice`, `chrt`, `taskset`, `sudo`, `doas`, `command`, `time`,
/// `busybox`). A program rwatch does not know is given its words as data,
/// as every other placeholder is.
enum InlineCode {
    /// A word that is code and holds a placeholder.
    struct Finding: Sendable, Equatable {
        /// The index of the word that holds code.
        var word: Int
        /// The program that parses it, as typed (`sh`, `python3`).
        var program: String
        /// Whether it is a POSIX shell's `-c` script, for which the safe
        /// spelling can be written out.
        var isShellScript: Bool
    }

    /// The first word of `words` that a program will parse as code and
    /// that holds `{}` or `{+}`; nil when there is none.
    static func find(in words: [[UInt8]]) -> Finding? {
        var index = 0
        while index < words.count {
            let name = programName(words[index])
            if let wrapper = Wrapper.all[name] {
                if let code = wrapper.inlineCode(in: words, after: index), holdsPlaceholder(words[code]) {
                    return Finding(word: code, program: name, isShellScript: false)
                }
                guard let next = wrapper.program(in: words, after: index) else { return nil }
                index = next
                continue
            }
            guard let language = Language.of(name) else { return nil }
            return language.codeWords(in: words, after: index)
                .first { holdsPlaceholder(words[$0]) }
                .map { Finding(word: $0, program: name, isShellScript: language == .posixShell) }
        }
        return nil
    }

    static func holdsPlaceholder(_ word: [UInt8]) -> Bool {
        word.contains(CommandTemplate.eachPath) || word.contains(CommandTemplate.allPaths)
    }

    /// The last component of a program's path, as text.
    static func programName(_ word: [UInt8]) -> String {
        let name = word.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).last ?? []
        return String(decoding: name, as: UTF8.self)
    }

    /// Whether `word` is an option (`-x`, `--long`, not `-` alone).
    static func isOption(_ word: [UInt8]) -> Bool {
        word.count > 1 && word.first == UInt8(ascii: "-")
    }
}

extension InlineCode {
    /// A program that runs the rest of its command line as another
    /// program: its options, then `operands` words of its own, then the program.
    struct Wrapper {
        /// Options that take the next word as their value.
        var valued: Set<String> = []
        /// Words of its own between its options and the program (timeout's duration).
        var operands = 0
        /// Whether `NAME=VALUE` words come before the program (env).
        var assignments = false
        /// Options whose value the wrapper itself parses as a command line (`env -S`).
        var codeOptions: Set<String> = []

        static let all: [String: Wrapper] = [
            "env": Wrapper(valued: ["-u", "--unset", "-C", "--chdir"], assignments: true,
                           codeOptions: ["-S", "--split-string"]),
            "exec": Wrapper(valued: ["-a"]),
            "nice": Wrapper(valued: ["-n", "--adjustment"]),
            "timeout": Wrapper(valued: ["-k", "--kill-after", "-s", "--signal"], operands: 1),
            "nohup": Wrapper(),
            "stdbuf": Wrapper(valued: ["-i", "-o", "-e", "--input", "--output", "--error"]),
            "setsid": Wrapper(),
            "ionice": Wrapper(valued: ["-c", "--class", "-n", "--classdata"]),
            "chrt": Wrapper(operands: 1),
            "taskset": Wrapper(operands: 1),
            "sudo": Wrapper(valued: ["-u", "--user", "-g", "--group", "-C", "--close-from", "-D", "--chdir",
                                     "-h", "--host", "-p", "--prompt", "-r", "--role", "-t", "--type",
                                     "-T", "--command-timeout", "-U", "--other-user", "-R", "--chroot"]),
            "doas": Wrapper(valued: ["-u", "-C"]),
            "command": Wrapper(),
            "time": Wrapper(valued: ["-f", "--format", "-o", "--output"]),
            "busybox": Wrapper(),
        ]

        /// The index of the program this wrapper runs, nil when none follows.
        func program(in words: [[UInt8]], after index: Int) -> Int? {
            var next = index + 1
            while next < words.count {
                let word = words[next]
                let text = String(decoding: word, as: UTF8.self)
                if text == "--" { next += 1; break }
                if InlineCode.isOption(word) {
                    next += valued.contains(text) || codeOptions.contains(text) ? 2 : 1
                } else if assignments, word.contains(UInt8(ascii: "=")) {
                    next += 1
                } else {
                    break
                }
            }
            next += operands
            return next < words.count ? next : nil
        }

        /// The index of a word that the wrapper parses as a command line
        /// itself (`env -S 'sh -c …'`), before its program.
        func inlineCode(in words: [[UInt8]], after index: Int) -> Int? {
            guard !codeOptions.isEmpty else { return nil }
            var next = index + 1
            while next < words.count, InlineCode.isOption(words[next]) {
                let text = String(decoding: words[next], as: UTF8.self)
                if codeOptions.contains(text) { return next + 1 < words.count ? next + 1 : nil }
                if codeOptions.contains(where: { text.hasPrefix($0 + ($0.hasPrefix("--") ? "=" : "")) }) { return next }
                next += valued.contains(text) ? 2 : 1
            }
            return nil
        }
    }
}

extension InlineCode {
    /// The one line that refuses `words` for `finding`: what would go
    /// wrong, the safe spelling, and the flag that pastes anyway. `nested`:
    /// the words are a command inside a `--shell` script.
    static func refusal(_ finding: Finding, in words: [[UInt8]], nested: Bool = false) -> String {
        let placeholder = words[finding.word].contains(CommandTemplate.allPaths) ? "{+}" : "{}"
        let what = finding.isShellScript ? "\(finding.program)'s -c script" : "code that \(finding.program) runs"
        let problem = "\(placeholder) inside \(what) would run file names as code"
        let remedy: String
        if finding.isShellScript, finding.word == words.count - 1, !nested {
            // The script with its placeholders made "${1}" or "$@", then
            // $0 and the placeholder as words of their own.
            let script = ShellPlaceholders.substitute(words[finding.word])
            let safe = words[..<finding.word] + [script, Array(finding.program.utf8), Array(placeholder.utf8)]
            remedy = "give them to the script as arguments: " + safe.map(shellQuoted).joined(separator: " ")
                + " (or --shell \(finding.program) " + shellQuoted(words[finding.word]) + ")"
        } else if finding.isShellScript {
            remedy = "give them to the script as arguments, as in \(finding.program) -c '… \"$1\" …' \(finding.program) \(placeholder)"
        } else {
            remedy = "give \(placeholder) as a word of its own after the code and read it there as an argument"
        }
        return Quoted.line("\(problem); \(remedy), or paste them anyway with --unsafe-paste-into-code")
    }

    /// `word` as a shell reads it back: as it is when plain, else in single quotes.
    static func shellQuoted(_ word: [UInt8]) -> String {
        let plain = !word.isEmpty && word.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
                || Array("-_./=:,@%+{}".utf8).contains(byte)
        }
        let text = String(decoding: word, as: UTF8.self)
        return plain ? text : "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }
}
