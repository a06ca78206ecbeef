import ArgumentParser

/// `rwatch watchman …` in rwatch's help and completions. The command line
/// itself is read before ArgumentParser sees it (`WatchmanCommand`), as
/// watchman's own options are not rwatch's; this entry only names it.
struct WatchmanSubcommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watchman",
        abstract: "Watchman's command line, talking to rwatch serve (started on demand); also rwatch run as 'watchman'.",
        discussion: "See 'rwatch watchman --help' for its options, and WATCHMAN COMMAND in rwatch(1)."
    )

    @Argument(parsing: .allUnrecognized, help: "A watchman command and its arguments.")
    var words: [String] = []

    func run() throws {
        WatchmanCommand.main(words.map { Array($0.utf8) })
    }
}
