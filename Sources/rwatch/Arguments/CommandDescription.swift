import ArgumentParser
import FoundationEssentials

/// ArgumentParser's description of rwatch's command tree, the part rwatch
/// reads: each command's name, its options' names, and whether they are
/// shown in help.
///
/// It is what `--experimental-dump-help` prints, the data ArgumentParser
/// makes its help and completion scripts from: ArgumentParser has no other
/// public way to list a command's options, and reading it here keeps the
/// option names in one place, the commands' own declarations. Read by the
/// completion fronts (`CompletionScript.Facts`) and by `UnknownOption`'s
/// suggestion.
struct CommandDescription: Decodable, Sendable {
    struct Name: Decodable, Sendable { var kind: String; var name: String }

    struct Argument: Decodable, Sendable {
        var kind: String
        var names: [Name]?
        var parsingStrategy: String?
        /// False for `.hidden` and `.private` options, which help leaves out.
        var shouldDisplay: Bool?

        /// How the names are typed: `-w`, `--watch`.
        var spellings: [String] {
            (names ?? []).map { $0.kind == "long" ? "--" + $0.name : "-" + $0.name }
        }
    }

    struct Command: Decodable, Sendable {
        var commandName: String
        var shouldDisplay: Bool?
        var defaultSubcommand: String?
        var subcommands: [Command]?
        var arguments: [Argument]?
    }

    /// The root command, `rwatch`.
    var command: Command

    /// The tree as the running binary's parser knows it.
    static func current() throws -> CommandDescription {
        let json: String
        do {
            _ = try RWatch.parseAsRoot(["--experimental-dump-help"])
            throw RWatchError("ArgumentParser gave no command description")
        } catch let error as RWatchError {
            throw error
        } catch {
            json = RWatch.fullMessage(for: error)
        }
        return try JSONDecoder().decode(CommandDescription.self, from: Data(json.utf8))
    }

    /// The subcommands shown in help, the default one among them.
    var subcommands: [Command] {
        (command.subcommands ?? []).filter { $0.shouldDisplay ?? true }
    }

    /// The subcommand `rwatch` runs when none is named (`watch`).
    var defaultSubcommand: Command? {
        subcommands.first { $0.commandName == command.defaultSubcommand }
    }

    /// The subcommand called `name`.
    func subcommand(named name: String) -> Command? {
        (command.subcommands ?? []).first { $0.commandName == name }
    }

    /// The subcommand a command line runs: the one its first word names,
    /// else the default one (only the first word can name a subcommand).
    func subcommand(for arguments: [String]) -> Command? {
        arguments.first.flatMap(subcommand(named:)) ?? defaultSubcommand
    }
}

extension CommandDescription.Command {
    /// The `--long` names of the options and flags help shows: what a
    /// user may be told to type instead of a misspelt one (hidden and
    /// private options are for tools and tests, never suggested).
    var visibleLongNames: [String] {
        (arguments ?? [])
            .filter { $0.shouldDisplay ?? true }
            .flatMap { ($0.names ?? []).filter { $0.kind == "long" }.map { "--" + $0.name } }
    }
}
