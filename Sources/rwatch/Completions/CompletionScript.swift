import ArgumentParser
import FoundationEssentials

/// `rwatch completions SHELL`: ArgumentParser's own completion script for
/// the command tree (every option, its values and paths, the recipe names
/// through `RecipeCompletion`), followed by rwatch's front for that shell,
/// which does only what ArgumentParser's scripts cannot:
///
/// - the words of `rwatch` without a subcommand are `rwatch watch`'s, the
///   default subcommand (ArgumentParser offers only subcommand names there);
/// - from the first word that is not an option (or after `--`), the words
///   are a command line of its own, completed as that command: a program
///   name, then that program's own completion (bash-completion's
///   `_command_offset`, zsh's `_normal`, fish's `__fish_complete_subcommand`);
///   a custom completion function can offer words, but not hand the line
///   to another command's completion;
/// - bash: the value in `--name=value`; all shells: `rwatch help SUBCOMMAND`
///   (ArgumentParser's `help` declares no completion).
///
/// Each front knows the names of ArgumentParser's entry point (`_rwatch`;
/// in fish the `__rwatch_tokens` it reads the command line with), and the
/// tests run every script in its shell.
enum CompletionScript {
    static func script(for shell: PrintCompletions.Shell) throws -> String {
        let facts = try Facts.current()
        switch shell {
        case .bash: return sourced(RWatch.completionScript(for: .bash)) + BashFront.script(facts)
        case .zsh: return try ZshFront.script(facts, after: RWatch.completionScript(for: .zsh))
        case .fish: return RWatch.completionScript(for: .fish) + FishFront.script(facts)
        }
    }

    /// `script` without its `#!` line: a completion script is sourced,
    /// never run (Debian's lintian warns of one).
    static func sourced(_ script: String) -> String {
        guard script.hasPrefix("#!") else { return script }
        return String(script.drop { $0 != "\n" }.dropFirst())
    }

    /// What the fronts must know that ArgumentParser's scripts keep inside
    /// their functions: the subcommands, and which options of the default
    /// subcommand take the next word as their value (to find where the
    /// command starts). Read from ArgumentParser's description of the
    /// command tree (`--experimental-dump-help`, the data its generators
    /// are made from): it has no other public way to list a command's options.
    struct Facts {
        var subcommands: [String]
        /// `-w --watch …`: their value is the next word.
        var valued: [String]
        /// `-N --notify`: their value may be left out, so the next word may be the command.
        var optional: [String]

        static func current() throws -> Facts {
            let json: String
            do {
                _ = try RWatch.parseAsRoot(["--experimental-dump-help"])
                throw RWatchError("ArgumentParser gave no command description")
            } catch let error as RWatchError {
                throw error
            } catch {
                json = RWatch.fullMessage(for: error)
            }
            let root = try JSONDecoder().decode(Dump.self, from: Data(json.utf8)).command
            let commands = (root.subcommands ?? []).filter { $0.shouldDisplay ?? true }
            guard let main = commands.first(where: { $0.commandName == root.defaultSubcommand }) else {
                throw RWatchError("ArgumentParser's command description names no default subcommand")
            }
            let options = (main.arguments ?? []).filter { $0.kind == "option" }
            let spellings = { (argument: Dump.Argument) in
                (argument.names ?? []).map { $0.kind == "long" ? "--" + $0.name : "-" + $0.name }
            }
            return Facts(
                subcommands: commands.map(\.commandName),
                valued: options.filter { $0.parsingStrategy != "scanningForValue" }.flatMap(spellings),
                optional: options.filter { $0.parsingStrategy == "scanningForValue" }.flatMap(spellings)
            )
        }
    }

    /// The part of ArgumentParser's command description read here.
    private struct Dump: Decodable {
        struct Name: Decodable { var kind: String; var name: String }
        struct Argument: Decodable { var kind: String; var names: [Name]?; var parsingStrategy: String? }
        struct Command: Decodable {
            var commandName: String
            var shouldDisplay: Bool?
            var defaultSubcommand: String?
            var subcommands: [Command]?
            var arguments: [Argument]?
        }
        var command: Command
    }
}
