import ArgumentParser

/// `rwatch completions bash|zsh|fish`: the completion script for a shell,
/// ArgumentParser's own with rwatch's front (`CompletionScript`), so it
/// knows every flag.
struct PrintCompletions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "completions",
        abstract: "Print the completion script for bash, zsh or fish.",
        discussion: """
            make install puts them where each shell looks. By hand:
              rwatch completions bash > ~/.local/share/bash-completion/completions/rwatch
              rwatch completions zsh > ~/.zfunc/_rwatch        (with ~/.zfunc in $fpath)
              rwatch completions fish > ~/.config/fish/completions/rwatch.fish
            """
    )

    /// The shells with a completion script.
    enum Shell: String, ExpressibleByArgument, CaseIterable {
        case bash, zsh, fish
    }

    @Argument(help: ArgumentHelp("The shell: bash, zsh or fish.", valueName: "shell"))
    var shell: Shell

    func run() throws {
        print(try CompletionScript.script(for: shell), terminator: "")
    }
}
