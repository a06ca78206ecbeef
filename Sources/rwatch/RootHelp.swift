import ArgumentParser

/// `rwatch --help`: the watch options first (what `rwatch COMMAND` takes,
/// the default subcommand's), then the subcommands.
///
/// ArgumentParser's help for a root command with a default subcommand
/// lists the subcommands only; this puts the root's overview and examples,
/// the `watch` usage, arguments and options, and the root's subcommand
/// list together, each section as ArgumentParser rendered it.
enum RootHelp {
    /// True when `arguments` (without the program name) ask for the root's help.
    static func isRequested(_ arguments: [String]) -> Bool {
        arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"] || arguments == ["-help"]
    }

    static func text(columns: Int? = nil) -> String {
        let root = RWatch.helpMessage(columns: columns)
        let watch = RWatch.helpMessage(for: Watch.self, columns: columns)
        let overview = section(of: root, from: "OVERVIEW:", to: "USAGE:")
        let options = section(of: watch, from: "USAGE:", to: nil)
        let subcommands = section(of: root, from: "SUBCOMMANDS:", to: nil)
        return [overview, options, subcommands]
            .map { $0.trimmingTrailingNewlines() }
            .filter { !$0.isEmpty }
            .joined(separator: "\n\n")
    }

    /// The lines of `text` from the line starting with `start` up to the
    /// line starting with `end` (or the end).
    private static func section(of text: String, from start: String, to end: String?) -> String {
        var lines: [Substring] = []
        var inside = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !inside, line.hasPrefix(start) { inside = true }
            else if inside, let end, line.hasPrefix(end) { break }
            if inside { lines.append(line) }
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var copy = self
        while copy.last == "\n" { copy.removeLast() }
        return copy
    }
}
