import ArgumentParser

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
    /// command starts). Read from ArgumentParser's `CommandDescription`.
    struct Facts {
        var subcommands: [String]
        /// `-w --watch …`: their value is the next word.
        var valued: [String]
        /// `-N --notify`: their value may be left out, so the next word may be the command.
        var optional: [String]

        static func current() throws -> Facts {
            let tree = try CommandDescription.current()
            guard let main = tree.defaultSubcommand else {
                throw RWatchError("ArgumentParser's command description names no default subcommand")
            }
            let options = (main.arguments ?? []).filter { $0.kind == "option" }
            return Facts(
                subcommands: tree.subcommands.map(\.commandName),
                valued: options.filter { $0.parsingStrategy != "scanningForValue" }.flatMap(\.spellings),
                optional: options.filter { $0.parsingStrategy == "scanningForValue" }.flatMap(\.spellings)
            )
        }
    }
}
