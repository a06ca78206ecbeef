import Glibc

/// How a `run` action starts its command and what it tells the user.
public struct RunOptions: Sendable {
    /// A name for the step in status lines and `RunResult.summary`
    /// (default: the program's name).
    public var name: String?
    /// Run `[shell, "-c", arguments joined by spaces]` instead of argv.
    public var shell: String?
    /// Sent to the process group to stop it (restart, Ctrl-C).
    public var stopSignal: Int32 = SIGTERM
    /// How long the group gets to exit after `stopSignal`, before SIGKILL.
    public var stopTimeout: Duration = .seconds(5)
    /// Stop a run that takes longer than this (`stopSignal`, then SIGKILL
    /// after `stopTimeout`); its status line says it timed out. Nil: no limit.
    public var timeout: Duration?
    /// Prefix every output line (e.g. `"[server] "`); nil lets the command
    /// write straight to rwatch's own stdout and stderr.
    public var outputPrefix: String?
    /// Clear the screen before each run (`-c`), or also the scrollback (`-cc`).
    public var clear: ScreenClearing = .off
    /// Print a status line on stderr before and after each run (`-q` turns
    /// them off).
    public var statusLines = true
    /// Print the events that led to each run on stderr, one line each,
    /// before it starts (`--print-events`).
    public var printEvents = false
    /// Tell the desktop (`notify-send`) when runs start, end, or both; a
    /// terminal bell where there is no desktop (`-N`).
    public var notify: NotifyWhen?
    /// Ring the terminal bell when a run ends (`--bell`).
    public var bell = false
    /// Extra environment variables for the command.
    public var environment: [String: String] = [:]
    /// The command's working directory; nil keeps rwatch's.
    public var workingDirectory: String?
    /// Give the command the terminal while it runs, when rwatch has one: it
    /// runs in the terminal's foreground process group with the terminal as
    /// stdin (prompts, REPLs, `pytest --pdb`; Ctrl-C and Ctrl-Z reach it),
    /// and rwatch takes the terminal back when it ends or stops. Off, its
    /// stdin is `/dev/null` and rwatch keeps the keyboard. In a recipe with
    /// pipelines running side by side, mark at most one: only one command
    /// can hold the terminal at a time (another runs without it meanwhile).
    /// `rwatch -- COMMAND` sets it unless `-I`.
    public var interactive = false

    /// Options with the defaults above; every field can be set here.
    public init(
        name: String? = nil, shell: String? = nil, stopSignal: Int32 = SIGTERM, stopTimeout: Duration = .seconds(5),
        timeout: Duration? = nil, outputPrefix: String? = nil, clear: ScreenClearing = .off, statusLines: Bool = true,
        printEvents: Bool = false, notify: NotifyWhen? = nil, bell: Bool = false,
        environment: [String: String] = [:], workingDirectory: String? = nil, interactive: Bool = false
    ) {
        self.name = name
        self.shell = shell
        self.stopSignal = stopSignal
        self.stopTimeout = stopTimeout
        self.timeout = timeout
        self.outputPrefix = outputPrefix
        self.clear = clear
        self.statusLines = statusLines
        self.printEvents = printEvents
        self.notify = notify
        self.bell = bell
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.interactive = interactive
    }
}

/// What `RunOptions.clear` wipes before each run.
public enum ScreenClearing: Sendable, Hashable {
    /// Nothing.
    case off
    /// The visible screen (`-c`).
    case screen
    /// The screen and the terminal's scrollback (`-cc`, as entr does).
    case screenAndScrollback
}

/// When `RunOptions.notify` sends a desktop notification.
public enum NotifyWhen: String, Sendable, CaseIterable {
    /// When a run starts.
    case start
    /// When a run ends, with its status.
    case end
    /// Both.
    case both

    var atStart: Bool { self != .end }
    var atEnd: Bool { self != .start }
}
