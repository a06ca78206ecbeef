import Signals
#if canImport(Glibc)
import Glibc
#endif

/// The modes rwatch found its terminal in, for the crash handler (which may
/// use no lock and no Swift runtime call): written once, before the handler
/// is installed.
nonisolated(unsafe) private var crashRestoreModes = termios()
nonisolated(unsafe) private var crashRestoreArmed: sig_atomic_t = 0
/// The handlers that were in place before (the Swift runtime's backtracer):
/// put back and run after the modes are restored. Indexed by signal number.
nonisolated(unsafe) private var previousCrashActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

/// rwatch's terminal (standard input, when it is one) and who holds it:
/// rwatch, waiting for a key, or the command it was handed to.
///
/// - A command started with `ProcessOptions.interactive` gets it when rwatch
///   is in the terminal's foreground process group and nobody else holds
///   it: its group becomes the foreground group (`tcsetpgrp`) and its stdin
///   is the terminal. rwatch takes it back, and puts back the modes it found
///   at start, when that group is gone or stops (Ctrl-Z).
/// - Keys (`Keyboard`): raw mode (no echo, no line editing, signals kept)
///   only while rwatch waits for a key and holds the terminal.
/// - The modes found at start come back on every way out: a normal end,
///   a stop signal, a job-control stop, a crash (SIGSEGV, SIGILL, SIGTRAP,
///   SIGABRT, SIGBUS, SIGFPE).
public enum ControllingTerminal {
    static let fd: Int32 = STDIN_FILENO

    private struct State {
        /// The modes at start; nil until `prepare()`, or when stdin is no terminal.
        var original: termios?
        /// The group the terminal was handed to.
        var holder: pid_t?
        /// Held by a command when rwatch stopped (Ctrl-Z): handed back on `fg`.
        var holderBeforeSuspend: pid_t?
        /// Keys want raw mode while rwatch holds the terminal.
        var keysWanted = false
        var raw = false
        var suspended = false
        /// The modes found at start are back for good: rwatch is ending.
        var restored = false
    }

    private static let state = Locked(State())

    /// Whether standard input is a terminal.
    public static var isTerminal: Bool { isatty(fd) == 1 }

    /// Whether rwatch is in the terminal's foreground process group now.
    public static var isForeground: Bool { isTerminal && tcgetpgrp(fd) == getpgrp() }

    /// Remembers the terminal's modes (once) and arranges for them to come
    /// back on every exit path. Called by the first hand-over or key reader;
    /// does nothing when stdin is not a terminal.
    public static func prepare() {
        let first = state.withLock { state -> Bool in
            guard state.original == nil, isatty(fd) == 1 else { return false }
            var modes = termios()
            guard tcgetattr(fd, &modes) == 0 else { return false }
            state.original = modes
            crashRestoreModes = modes
            return true
        }
        guard first else { return }
        ProcessSupervisor.onStop { restore() }
        SignalOwner.onJobControl(suspending: { suspend() }, resumed: { resume() })
        installCrashRestore()
    }

    /// Puts back the modes found at start and the foreground group (if
    /// rwatch had it). For every way out.
    public static func restore() {
        state.withLock { state in
            guard var original = state.original else { return }
            if let holder = state.holder, tcgetpgrp(fd) == holder {
                _ = tcsetpgrp(fd, getpgrp())
            }
            state.holder = nil
            state.raw = false
            state.restored = true
            _ = tcsetattr(fd, TCSADRAIN, &original)
        }
    }

    // MARK: Hand-over (ProcessGroup)

    /// Whether a command starting now may get the terminal: rwatch holds it
    /// (foreground, no other command has it). If so, raw mode is left and
    /// the terminal is reserved until `handedOver` or `cancelHandOver`.
    static func reserve() -> Bool {
        prepare()
        return state.withLock { state in
            guard var original = state.original, state.holder == nil, !state.suspended,
                  tcgetpgrp(fd) == getpgrp() else { return false }
            if state.raw {
                _ = tcsetattr(fd, TCSADRAIN, &original)
                state.raw = false
            }
            state.holder = 0  // reserved
            return true
        }
    }

    /// The reserved terminal now belongs to group `pgid` (the child made
    /// itself foreground before exec; this makes sure of it). When a Ctrl-Z
    /// reached rwatch during the spawn (it is stopping, or stopped and now
    /// continued before this), the group gets the terminal on `fg`, as a
    /// holder does: handed over now, it would keep it from the shell, and
    /// after `fg` rwatch would hold it while the state said the command
    /// did, continuing the command's SIGTTIN stops for ever.
    static func handedOver(to pgid: pid_t) {
        state.withLock { state in
            if state.suspended {
                state.holderBeforeSuspend = pgid
                if state.holder == 0 { state.holder = nil }
                // The child made itself foreground before its exec, after
                // `suspend` had given the terminal back: give it back again.
                if tcgetpgrp(fd) == pgid { _ = tcsetpgrp(fd, getpgrp()) }
                return
            }
            state.holder = pgid
            _ = tcsetpgrp(fd, pgid)
        }
        Keyboard.terminalChanged()
    }

    /// The spawn that reserved the terminal failed.
    static func cancelHandOver() {
        state.withLock { state in
            if state.holder == 0 { state.holder = nil }
            applyRaw(&state)
        }
        Keyboard.terminalChanged()
    }

    /// Group `pgid` is gone or stopped: rwatch takes the terminal back and
    /// puts back the modes found at start (the command may have changed them).
    /// What was typed to the command and left unread is discarded: a key
    /// typed to a server under `-r` is no key for rwatch, nor input for the
    /// next run.
    static func takeBack(from pgid: pid_t) {
        let changed = state.withLock { state -> Bool in
            // Gone while rwatch was stopped or in the background: nothing to hand back on `fg`.
            if state.holderBeforeSuspend == pgid { state.holderBeforeSuspend = nil }
            guard state.holder == pgid, var original = state.original else { return false }
            state.holder = nil
            if tcgetpgrp(fd) == pgid { _ = tcsetpgrp(fd, getpgrp()) }
            _ = tcflush(fd, TCIFLUSH)
            _ = tcsetattr(fd, TCSADRAIN, &original)
            state.raw = false
            applyRaw(&state)
            return true
        }
        if changed { Keyboard.terminalChanged() }
    }

    /// Whether group `pgid` holds the terminal.
    static func isHeld(by pgid: pid_t) -> Bool {
        state.withLock { $0.holder == pgid }
    }

    /// Whether group `pgid` held the terminal when rwatch stopped, and
    /// gets it back once rwatch is in the foreground again (after `bg`).
    static func isWaitingForForeground(_ pgid: pid_t) -> Bool {
        state.withLock { $0.holderBeforeSuspend == pgid && !$0.suspended }
    }

    /// Puts the modes in line with who holds the terminal now: after rwatch
    /// came to the foreground with no signal to say so (a shell's `fg` of
    /// a job that was running in the background).
    static func refresh() {
        state.withLock { applyRaw(&$0) }
    }

    /// Whether a command holds (or is about to get) the terminal.
    static var isHeldByCommand: Bool { state.withLock { $0.holder != nil } }

    // MARK: Keys

    /// Keys want raw mode whenever rwatch holds the terminal (or no longer).
    static func wantKeys(_ wanted: Bool) {
        prepare()
        state.withLock { state in
            state.keysWanted = wanted
            applyRaw(&state)
        }
    }

    /// Runs `body` while no command holds the terminal and rwatch is in the
    /// foreground, so that what it reads is meant for rwatch; false otherwise.
    static func whileHeldByRwatch(_ body: () -> Void) -> Bool {
        state.withLock { state in
            // Ending: what was typed ahead is no request to run or quit.
            guard state.holder == nil, !state.suspended, !isEnding(state), tcgetpgrp(fd) == getpgrp() else { return false }
            applyRaw(&state)
            body()
            return true
        }
    }

    /// Raw mode on or off as the state asks. Only under the lock.
    /// Whether rwatch is ending (a stop signal came, or the modes are back
    /// for good): keys are no longer read.
    static var isEnding: Bool { state.withLock { isEnding($0) } }

    /// Once a stop signal came or the modes were put back, raw mode never
    /// returns: a key read, or a command's group gone, while the stop runs
    /// left the terminal without echo after rwatch exited.
    private static func isEnding(_ state: State) -> Bool {
        state.restored || SignalOwner.isEnding
    }

    private static func applyRaw(_ state: inout State) {
        guard let original = state.original else { return }
        let wanted = state.keysWanted && state.holder == nil && !state.suspended && !isEnding(state) && tcgetpgrp(fd) == getpgrp()
        guard wanted != state.raw else { return }
        var modes = original
        if wanted {
            // No echo, no line editing; Ctrl-C and Ctrl-Z still signal.
            modes.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &modes.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
        }
        _ = tcsetattr(fd, TCSADRAIN, &modes)
        state.raw = wanted
    }

    // MARK: Job control

    /// Before rwatch stops (Ctrl-Z): the terminal goes back to rwatch's group
    /// in the modes found at start, so the shell gets it as it was.
    private static func suspend() {
        state.withLock { state in
            guard var original = state.original else { return }
            state.suspended = true
            if let holder = state.holder, holder != 0 {
                state.holderBeforeSuspend = holder
                if tcgetpgrp(fd) == holder { _ = tcsetpgrp(fd, getpgrp()) }
                state.holder = nil
            }
            state.raw = false
            _ = tcsetattr(fd, TCSADRAIN, &original)
        }
    }

    /// After `fg`: the command that held the terminal gets it back (before
    /// it is continued); otherwise rwatch waits for keys again.
    private static func resume() {
        state.withLock { state in
            state.suspended = false
            // Continued in the background (`bg`), the terminal is the
            // shell's: the command gets it on the `fg` to come, so it is
            // remembered until then. Forgotten here, the command stopped on
            // its next read (SIGTTIN) and stayed stopped after `fg`.
            if let holder = state.holderBeforeSuspend, tcgetpgrp(fd) == getpgrp() {
                state.holder = holder
                _ = tcsetpgrp(fd, holder)
                state.holderBeforeSuspend = nil
            }
            applyRaw(&state)
        }
        Keyboard.terminalChanged()
    }

    // MARK: Crash

    /// On a crash signal: the modes found at start, then whatever handled
    /// the signal before (the runtime's backtrace, or the default action).
    private static func installCrashRestore() {
        crashRestoreArmed = 1
        for number in [SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                if crashRestoreArmed != 0 { _ = tcsetattr(STDIN_FILENO, TCSANOW, &crashRestoreModes) }
                _ = sigaction(number, previousCrashActions + Int(number), nil)
                _ = raise(number)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            (previousCrashActions + Int(number)).initialize(to: sigaction())
            sigaction(number, &action, previousCrashActions + Int(number))
        }
    }
}
