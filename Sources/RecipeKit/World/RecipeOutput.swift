/// Where a recipe's lines go (`RecipeWorld.output`): the terminal in the
/// live world (`Terminal`), a record on the virtual clock in a recipe's
/// tests.
package protocol RecipeOutput: Sendable {
    /// One line a command or a `print` wrote, with its prefix.
    func output(_ line: String, prefix: String, color: Terminal.Color?, toStandardError: Bool)
    /// One status line (`rwatch: …`).
    func status(_ text: String, color: Terminal.Color?)
    /// One error line (`rwatch: error: …`).
    func error(_ text: String)
    /// One warning line (`rwatch: warning: …`).
    func warning(_ text: String)
    /// The terminal bell.
    func bell()
    /// Clears the screen (or the scrollback too) before a run.
    func clear(_ clearing: ScreenClearing)
    /// A run's notification (`-N`, `RunOptions.notify`): on the desktop
    /// when there is one, else the bell.
    func announce(_ message: String)
    /// `notify(message:)`: on the desktop when there is one, else the bell
    /// and a yellow status line.
    func notify(_ message: String)
}

/// The terminal.
struct LiveOutput: RecipeOutput {
    func output(_ line: String, prefix: String, color: Terminal.Color?, toStandardError: Bool) {
        Terminal.output(line, prefix: prefix, color: color, toStandardError: toStandardError)
    }

    func status(_ text: String, color: Terminal.Color?) { Terminal.status(text, color: color) }

    func error(_ text: String) { Terminal.error(text) }

    func warning(_ text: String) { Terminal.warning(text) }

    func bell() { Terminal.bell() }

    func clear(_ clearing: ScreenClearing) { Terminal.clear(clearing) }

    func announce(_ message: String) { Notifier.announce(message) }

    func notify(_ message: String) { Notifier.show(message, command: Notifier.desktopCommand(message)) }
}
