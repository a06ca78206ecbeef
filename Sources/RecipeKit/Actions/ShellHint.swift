/// The hint after a command that could not start when it was evidently
/// meant for a shell: `rwatch 'make && ./run'` looks for a program named
/// `make && ./run`, and `rwatch make '|' tee log` passes `|` to make.
enum ShellHint {
    static let text = "hint: use --shell sh to run it through a shell"

    /// True when `arguments` look like shell (a pipe, `&&`, `;`, a
    /// redirection, `$(`, backquotes, or a space inside the program's
    /// name), no shell was asked for, and the command failed to start.
    static func applies(to error: any Error, arguments: [String], shell: String?) -> Bool {
        guard shell == nil, let error = error as? ProcessError else { return false }
        switch error.reason {
        case .notFound, .notExecutable: return looksLikeShell(arguments)
        default: return false
        }
    }

    static func looksLikeShell(_ arguments: [String]) -> Bool {
        guard let program = arguments.first else { return false }
        if program.contains(" ") || program.contains("\t") { return true }
        let operators = ["|", "||", "&&", ";", ">", ">>", "<", "2>&1", "&"]
        let markers = ["$(", "`", "&&", "||", "|", ";", ">", "<"]
        return arguments.contains { word in
            operators.contains(word) || markers.contains { word.contains($0) }
        }
    }
}
