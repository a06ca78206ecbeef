import Glibc

/// The terminal as rwatch found it, to put back after a recipe child
/// ended without doing so itself (it crashed with the terminal in raw mode,
/// or while one of its commands held the foreground).
struct TerminalState {
    private var settings: termios

    /// The state of the terminal on standard input, when rwatch runs in
    /// its foreground; nil otherwise (nothing to restore then).
    static func capture() -> TerminalState? {
        guard isatty(0) == 1, tcgetpgrp(0) == getpgrp() else { return nil }
        var settings = termios()
        guard tcgetattr(0, &settings) == 0 else { return nil }
        return TerminalState(settings: settings)
    }

    /// Makes rwatch's group the foreground group again and restores the
    /// settings. SIGTTOU, which a background group gets for this, is
    /// blocked meanwhile.
    func restore() {
        var block = sigset_t()
        var previous = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGTTOU)
        pthread_sigmask(SIG_BLOCK, &block, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        if tcgetpgrp(0) != getpgrp() { _ = tcsetpgrp(0, getpgrp()) }
        var settings = settings
        _ = tcsetattr(0, TCSADRAIN, &settings)
    }
}
