import Glibc

/// The width `--help` is wrapped to. On a terminal, its width as
/// ArgumentParser finds it: `COLUMNS` when set, else the terminal's own
/// (TIOCGWINSZ on standard output), else 80. When standard output is no
/// terminal, no wrapping at all: help read by grep, a pager or a file
/// keeps each option's text on its line, where ArgumentParser would break
/// it at its fallback of 80 columns. `COLUMNS` is still obeyed there: it
/// is the user saying what width they want (environ(7)).
enum HelpWidth {
    /// Where standard output goes.
    enum Output: Equatable, Sendable {
        /// A file or a pipe.
        case notTerminal
        /// A terminal, `columns` wide when it says (its size may be unset: 0).
        case terminal(columns: Int)
    }

    /// Wider than any line of help: no wrapping.
    static let unwrapped = 1 << 20
    /// ArgumentParser indents an option's help by 26 columns and fails
    /// (in a debug build) or drops the text when it has no room after
    /// them: a narrower `COLUMNS` is taken as this.
    static let narrowest = 40
    /// ArgumentParser's width for a terminal that gives none.
    static let fallback = 80

    /// The width for `COLUMNS` (the variable's value, nil when unset) and
    /// standard output `output`.
    static func columns(environment columns: String?, output: Output) -> Int {
        if let columns, let width = Int(columns), width > 0 { return max(width, narrowest) }
        switch output {
        case .notTerminal: return unwrapped
        case .terminal(let columns): return columns > 0 ? max(columns, narrowest) : fallback
        }
    }

    /// The width for this process's `COLUMNS` and standard output.
    static var current: Int {
        columns(environment: getenv("COLUMNS").map { String(cString: $0) }, output: standardOutput)
    }

    private static var standardOutput: Output {
        guard isatty(STDOUT_FILENO) == 1 else { return .notTerminal }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return .terminal(columns: 0) }
        return .terminal(columns: Int(size.ws_col))
    }
}
