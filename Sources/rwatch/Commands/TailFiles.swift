import ArgumentParser
import Glibc
import RecipeKit

/// `rwatch tail FILE… [--grep REGEX]`: follow logs like `tail -F`, keep the
/// matching lines.
struct TailFiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail",
        abstract: "Follow files like tail -F (rotation, truncation), optionally keeping only matching lines.",
        discussion: """
            With several files each line is prefixed with its file's path (control \
            characters in it escaped: \\e, \\n).

            Examples:
              rwatch tail app.log
              rwatch tail app.log worker.log --grep 'error|warn'
            """
    )

    @Argument(help: ArgumentHelp("Files to follow (they may appear later).", valueName: "file"))
    var files: [String]

    @Option(help: ArgumentHelp("Keep lines matching this regular expression (grep -E syntax, case-insensitive).", valueName: "regex"))
    var grep: String?

    @Flag(name: .customLong("case-sensitive"), help: "Match --grep case-sensitively.")
    var caseSensitive = false

    @Flag(name: .customLong("from-start"), help: "Print the files' current contents first.")
    var fromStart = false

    func validate() throws {
        if let grep {
            do {
                _ = try LinePattern(grep, ignoringCase: !caseSensitive)
            } catch {
                throw ValidationError("\(error)")
            }
        }
        for file in files where !FileSystem.isDirectory(FileSystem.directory(of: FileSystem.absolute(file))) {
            throw ValidationError("no such directory for \(Quoted.path(file))")
        }
    }

    func run() throws {
        // validate() compiled it already.
        let pattern = grep.flatMap { try? LinePattern($0, ignoringCase: !caseSensitive) }
        let several = files.count > 1
        ClosedOutput.endProcessWhenUnread()
        // In batches, one per read of a file: one write for many lines.
        let paths = files.map { FilePath($0) }
        // Each file's prefix, escaped once.
        let prefixes = Dictionary(paths.map { ($0, Quoted.escaped($0) + ": ") }) { first, _ in first }
        let lines = Tail.followBatches(paths, from: fromStart ? .start : .end, matching: pattern)
            .map { batch in
                Terminal.output(lines: several ? batch.map { prefixes[$0.path, default: ""] + $0.text } : batch.map(\.text))
                return batch
            }
        Glibc.exit(RecipeRunner.run(Recipe("tail", "follow files") { lines }))
    }
}
