import ArgumentParser

/// The command of `rwatch [options] COMMAND…` as the parser captured it.
///
/// The parser stops at the first word it does not know, whether that is the
/// command (`python3`), the `--` terminator, or a misspelt option (`--pol`).
/// This tells them apart: after `--` everything is the command, verbatim; a
/// dash word before it is an option rwatch does not have.
enum CommandWords {
    /// The command without a leading `--`; throws `UnknownOption` when the
    /// first word is an option (naming the nearest of `command`'s, if any).
    /// `--help` and `--version` there (the parser leaves them to the
    /// command) ask for `command`'s help and for the version.
    static func command(from words: [String], of command: any ParsableCommand.Type) throws -> [String] {
        guard let first = words.first else { return [] }
        if first == "--" { return Array(words.dropFirst()) }
        if ["--help", "-h", "-help"].contains(first) { throw CleanExit.helpRequest(command) }
        if first == "--version" { throw CleanExit.message(Version.line) }
        if first.hasPrefix("-"), first != "-" {
            let name = first.split(separator: "=", maxSplits: 1).first.map(String.init) ?? first
            throw UnknownOption(name, of: try? CommandDescription.current().subcommand(named: command._commandName))
        }
        return words
    }
}
