import ArgumentParser
import Glibc
import RecipeKit

/// `rwatch tail FILE… [-n N] [--grep REGEX]`: follow logs like `tail -F`,
/// keep the matching lines. FIFOs, pipes and `-` (standard input) are read
/// as streams, so that `producer | rwatch tail - --grep …` works and ends
/// with its input.
struct TailFiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail",
        abstract: "Follow files like tail -F (rotation, truncation), optionally keeping only matching lines.",
        discussion: """
            With several files each line is prefixed with its file's path (control \
            characters in it escaped: \\e, \\n). Waiting for a file, rotation and \
            truncation are reported on stderr (not under -q).

            A FIFO is read as it is written, writer after writer (each writer's \
            unfinished last line printed when it closes). A pipe or a terminal is \
            read to its end: - is standard input (as is /dev/stdin), /dev/fd/N a \
            <(...) substitution. -n does not apply to them: they are read from \
            the moment they are opened. Once every file given is such a pipe or \
            terminal and has ended, rwatch tail exits 0.

            Examples:
              rwatch tail app.log                       (the last 10 lines, then new ones)
              rwatch tail -n +1 app.log                 (the whole file, then new ones)
              rwatch tail -n 0 app.log worker.log --grep 'error|warn'
              make 2>&1 | rwatch tail - --grep error    (until make ends)
            """
    )

    @Argument(help: ArgumentHelp("Files to follow (they may appear later; - is standard input).", valueName: "file"), completion: .file())
    var files: [String]

    @Option(name: [.customShort("n"), .customLong("lines")], help: ArgumentHelp("Print the last N lines first (default 10), or +N: from line N on (+1: the whole file). Not for a FIFO or pipe, read as it comes.", valueName: "n"))
    var lines = LineCount(.lastLines(10))

    @Option(help: ArgumentHelp("Keep lines matching this regular expression (grep -E syntax, case-insensitive).", valueName: "regex"))
    var grep: String?

    @Flag(name: .customLong("case-sensitive"), help: "Match --grep case-sensitively.")
    var caseSensitive = false

    @Flag(name: [.customShort("f"), .customShort("F")], help: "Accepted as tail takes them: rwatch tail always follows, by name, across rotation.")
    var follow = false

    @OptionGroup(title: "Output")
    var output: OutputFlags

    @OptionGroup(title: "How changes are seen")
    var backend: BackendOptions

    func validate() throws {
        try BackendOptions.checkPollValues()
        if let grep {
            do {
                _ = try LinePattern(grep, ignoringCase: !caseSensitive)
            } catch {
                throw ValidationError("\(error)")
            }
        }
        if files.contains("") { throw ValidationError("'' is no file name") }
        for file in RawArguments.paths(files) where !FileSystem.isDirectory(FileSystem.absolute(file).removingLastComponent()) {
            throw ValidationError("no such directory for \(Quoted.path(file))")
        }
    }

    /// The line `tail -F` would print on stderr for `notice`.
    static func describe(_ notice: Tail.Notice) -> String {
        switch notice {
        case .waiting(let path): "waiting for \(Quoted.path(path)) to appear"
        case .appeared(let path): "\(Quoted.path(path)) appeared"
        case .rotated(let path): "\(Quoted.path(path)) was rotated"
        case .truncated(let path): "\(Quoted.path(path)) was truncated"
        }
    }

    func run() throws {
        try output.apply()
        // validate() compiled it already.
        let pattern = grep.flatMap { try? LinePattern($0, ignoringCase: !caseSensitive) }
        let several = files.count > 1
        let quiet = output.quiet
        ClosedOutput.endProcessWhenUnread()
        // In batches, one per read of a file: one write for many lines.
        let paths = RawArguments.paths(files)
        // Each file's prefix, escaped once.
        let prefixes = Dictionary(paths.map { ($0, Quoted.escaped($0) + ": ") }) { first, _ in first }
        // On a terminal, a log's control sequences are shown, not obeyed
        // (colours pass); into a pipe or a file, lines go as they are.
        let onTerminal = isatty(1) == 1
        let shown: @Sendable (String) -> String = { text in onTerminal ? Quoted.terminalLine(text) : text }
        let lines = Tail.followBatches(paths, from: lines.start, matching: pattern, backend: backend.backend) { notice in
            if quiet { Diagnostics.log(.info, Self.describe(notice)) } else { Terminal.status(Self.describe(notice)) }
        }
        .map { batch in
            Terminal.output(lines: several ? batch.map { prefixes[$0.path, default: ""] + shown($0.text) } : batch.map { shown($0.text) })
            return batch
        }
        ProcessSupervisor.exit(RecipeRunner.run(Recipe("tail", "follow files") { lines }, keys: false))
    }
}
