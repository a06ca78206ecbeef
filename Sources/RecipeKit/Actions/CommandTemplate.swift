import SystemPackage

/// A run action's command with its placeholders, and the commands it
/// makes of the changed paths of one trigger (a pure value: no I/O).
///
/// - `{}`: one run per changed path, the path as that word, or in place
///   inside a word (`--out={}.o`). `["cc", "-c", "{}"]` for `a.c` and
///   `b.c` gives `cc -c a.c` and `cc -c b.c`.
/// - `{+}`: one run with every changed path, the word repeated once per
///   path (`["prettier", "--write", "{+}"]`: `prettier --write a.js b.js`),
///   split into several runs where the words would pass the kernel's
///   argument limit, as `xargs` splits.
/// - Neither: the command as it is, once per trigger.
///
/// A path is given byte for byte, relative to `base` (the command's
/// working directory) when it lies inside it, else absolute; never
/// through a shell string. A placeholder in a word that the program parses
/// as code (`sh -c 'echo {}'`, `python3 -c …`: `InlineCode`) is refused,
/// unless `pasteIntoCode` says to paste it anyway. With a shell, the script is the words joined
/// by spaces with `{}` made `"${1}"` and `{+}` made `"$@"` (quoted as the
/// spot in the script needs, `ShellPlaceholders`), and the paths are the
/// script's positional parameters (`ProcessOptions.shellParameters`).
public struct CommandTemplate: Sendable {
    /// Which placeholder the command holds.
    enum Placeholder: Sendable, Equatable {
        case none
        /// `{}`: one run per path.
        case eachPath
        /// `{+}`: every path, as words.
        case allPaths
    }

    /// One command to start: its words (the script, with a shell), the
    /// shell's positional parameters, and the changed paths it is for
    /// (empty for a command without placeholders).
    struct Invocation: Sendable, Hashable {
        var words: [CommandWord]
        var shellParameters: [CommandWord] = []
        var paths: [FilePath] = []
    }

    /// What a command with placeholders cannot be.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// It holds `{}` and `{+}`.
        case both
        /// A placeholder is the program itself (`rwatch -- {}`).
        case placeholderAsProgram(String)
        /// A placeholder stands in a word the program parses as code
        /// (`sh -c 'echo {}'`): the line that says so and the safe spelling.
        case placeholderInCode(String)

        public var description: String {
            switch self {
            case .both:
                return "a command takes {} (one run per changed path) or {+} (every path at once), not both"
            case .placeholderAsProgram(let placeholder):
                return "\(placeholder) needs a command to run the file with, as in: sh \(placeholder)"
            case .placeholderInCode(let refusal):
                return refusal
            }
        }
    }

    static let eachPath = Array("{}".utf8)
    static let allPaths = Array("{+}".utf8)

    let words: [CommandWord]
    let shell: String?
    let placeholder: Placeholder
    /// Paths inside it are given relative to it (nil: always absolute).
    var base: FilePath?
    /// Give a relative path that begins with `-` as `./-name`, so that a
    /// program without `--` cannot take it for an option.
    var dashSafe = false
    /// Bytes the words of one `{+}` run may take (`ArgumentLimit`).
    var argumentBudget = ArgumentLimit.budget()
    /// The script with its placeholders made positional parameters (shell only).
    private let script: CommandWord?

    /// The template of `words`; throws a `Problem` for a command that holds
    /// both placeholders, one as the program itself, or one inside code
    /// the program parses (unless `pasteIntoCode`).
    public init(
        _ words: [CommandWord], shell: String? = nil, base: FilePath? = nil, dashSafe: Bool = false,
        pasteIntoCode: Bool = false
    ) throws(Problem) {
        self.words = words
        self.shell = shell
        self.base = base
        self.dashSafe = dashSafe
        let each = words.contains { $0.bytes.contains(Self.eachPath) }
        let all = words.contains { $0.bytes.contains(Self.allPaths) }
        if each && all { throw .both }
        placeholder = each ? .eachPath : all ? .allPaths : .none
        if placeholder != .none, let program = words.first?.bytes.split(separator: UInt8(ascii: " ")).first,
           Array(program) == Self.eachPath || Array(program) == Self.allPaths {
            throw .placeholderAsProgram(String(decoding: program, as: UTF8.self))
        }
        if placeholder != .none, !pasteIntoCode {
            try Self.refuseCode(in: words, shell: shell)
        }
        if shell != nil, placeholder != .none {
            let joined = Array(words.map(\.bytes).joined(separator: [UInt8(ascii: " ")]))
            script = CommandWord(bytes: ShellPlaceholders.substitute(joined))
        } else {
            script = nil
        }
    }

    /// Throws `placeholderInCode` when a placeholder stands in a word that
    /// is code: of the command (`sh -c 'echo {}'`), or, with a POSIX shell,
    /// of a command inside the script (`--shell sh 'sh -c "echo {}"'`).
    private static func refuseCode(in words: [CommandWord], shell: String?) throws(Problem) {
        if let shell {
            guard InlineCode.Language.of(InlineCode.programName(Array(shell.utf8))) == .posixShell else { return }
            let script = Array(words.map(\.bytes).joined(separator: [UInt8(ascii: " ")]))
            if let (finding, commandWords) = InlineCode.find(inScript: script) {
                throw .placeholderInCode(InlineCode.refusal(finding, in: commandWords, nested: true))
            }
        } else if let finding = InlineCode.find(in: words.map(\.bytes)) {
            throw .placeholderInCode(InlineCode.refusal(finding, in: words.map(\.bytes)))
        }
    }

    /// The template of a run action's `words` under `options`: paths
    /// relative to the command's working directory.
    static func forRun(_ words: [CommandWord], options: RunOptions) throws(Problem) -> CommandTemplate {
        let base = FileSystem.absolute(FilePath(options.workingDirectory ?? "."))
        return try CommandTemplate(words, shell: options.shell, base: base, dashSafe: options.dashSafe,
                                   pasteIntoCode: options.unsafePasteIntoCode)
    }

    /// `words` as they are, whatever they hold.
    init(plain words: [CommandWord]) {
        self.words = words
        shell = nil
        placeholder = .none
        script = nil
    }

    /// Whether a trigger's paths decide what runs (`{}` or `{+}`).
    public var isPerPath: Bool { placeholder != .none }

    /// The commands for a trigger that changed `paths` (in order): the
    /// command once without placeholders, else one per path (`{}`) or per
    /// chunk of paths (`{+}`); none when a placeholder has no path.
    func invocations(for paths: [FilePath]) -> [Invocation] {
        switch placeholder {
        case .none:
            return [Invocation(words: words)]
        case .eachPath:
            return paths.map { path in
                let word = shown(path)
                if let script { return Invocation(words: [script], shellParameters: [word], paths: [path]) }
                return Invocation(words: words.map { replacing(Self.eachPath, in: $0, with: word.bytes) }, paths: [path])
            }
        case .allPaths:
            return chunks(of: paths).map { chunk in
                let shownWords = chunk.map(shown)
                if let script { return Invocation(words: [script], shellParameters: shownWords, paths: chunk) }
                let expanded = words.flatMap { word -> [CommandWord] in
                    guard word.bytes.contains(Self.allPaths) else { return [word] }
                    return shownWords.map { replacing(Self.allPaths, in: word, with: $0.bytes) }
                }
                return Invocation(words: expanded, paths: chunk)
            }
        }
    }

    /// `path` as the command gets it: relative to `base` when inside it,
    /// `./` before a leading `-` under `dashSafe`.
    func shown(_ path: FilePath) -> CommandWord {
        var bytes = path.bytes
        if let base, let relative = FileSystem.relative(path, to: base), !relative.isEmpty {
            bytes = relative.bytes
        }
        if dashSafe, bytes.first == UInt8(ascii: "-") { bytes = Array("./".utf8) + bytes }
        return CommandWord(bytes: bytes)
    }

    /// `paths` cut where one run's words would pass `argumentBudget`
    /// (every chunk holds at least one path).
    private func chunks(of paths: [FilePath]) -> [[FilePath]] {
        let fixed: Int
        let perPath: (FilePath) -> Int
        if let script {
            let shellName = Array((shell ?? "sh").utf8)
            fixed = ArgumentLimit.cost(of: [shellName, Array("-c".utf8), script.bytes, shellName])
            perPath = { ArgumentLimit.cost(of: [shown($0).bytes]) }
        } else {
            let holders = words.filter { $0.bytes.contains(Self.allPaths) }
            fixed = ArgumentLimit.cost(of: words.filter { !$0.bytes.contains(Self.allPaths) }.map(\.bytes))
            perPath = { path in
                let length = shown(path).bytes.count
                return holders.reduce(0) { $0 + ArgumentLimit.cost(of: [$1.bytes]) - Self.allPaths.count + length }
            }
        }
        var result: [[FilePath]] = []
        var chunk: [FilePath] = []
        var used = fixed
        for path in paths {
            let cost = perPath(path)
            if !chunk.isEmpty, used + cost > argumentBudget {
                result.append(chunk)
                chunk = []
                used = fixed
            }
            chunk.append(path)
            used += cost
        }
        if !chunk.isEmpty { result.append(chunk) }
        return result
    }

    /// `word` with every `placeholder` in it made `value`.
    private func replacing(_ placeholder: [UInt8], in word: CommandWord, with value: [UInt8]) -> CommandWord {
        CommandWord(bytes: ShellPlaceholders.replace(placeholder, in: word.bytes) { _ in value })
    }
}
