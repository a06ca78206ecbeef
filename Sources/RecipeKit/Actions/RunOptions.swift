import Glibc

/// How a `run` action starts its command and what it tells the user.
///
/// How the process is started and stopped is a `ProcessOptions`
/// (`process`), handed to `ProcessSource` as it is. Its fields read and
/// set as the run's own, under the same names: `options.shell`,
/// `stopSignal`, `stopTimeout`, `environment`, `workingDirectory`,
/// `interactive` (documented there). The rest is the run's own.
///
///     var options = RunOptions(name: "server", stopTimeout: .seconds(2))
///     options.environment["PORT"] = "8080"      // options.process.environment
@dynamicMemberLookup
public struct RunOptions: Sendable {
    /// How the command's process is started and stopped. Its
    /// `captureOutput` follows `outputPrefix`, and the changed paths are
    /// added to its `environmentBytes`, at each run.
    public var process: ProcessOptions
    /// A name for the step in status lines and `RunResult.summary`
    /// (default: the program's name).
    public var name: String?
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
    /// With `{}` or `{+}` in the command: how many of a trigger's runs may
    /// run at once (`-j`, at least 1). The busy policy applies to them all:
    /// a restart stops every one.
    public var jobs = 1
    /// With `{}` or `{+}`: give a relative path that begins with `-` as
    /// `./-name`, for a program that takes no `--` before its files
    /// (`--dash-safe`). Off by default: the command gets the path's bytes
    /// exactly, and `cmd -- {}` is the remedy every program knows.
    public var dashSafe = false
    /// With `{}` or `{+}` inside code the program parses (`sh -c 'cat {}'`,
    /// `python3 -c …`): paste the path into it anyway, so that a file
    /// named `$(reboot)` runs `reboot` (`--unsafe-paste-into-code`). Off:
    /// such a command is refused, with its safe spelling (`InlineCode`).
    public var unsafePasteIntoCode = false
    /// Called on the recipe queue as each trigger's runs start (for
    /// `restarting`, which must know whether its server is up).
    var onSetStart: (@Sendable () -> Void)?

    /// Options with the defaults above; every field can be set here.
    public init(
        name: String? = nil, shell: String? = nil, stopSignal: Int32 = SIGTERM, stopTimeout: Duration = .seconds(5),
        timeout: Duration? = nil, outputPrefix: String? = nil, clear: ScreenClearing = .off, statusLines: Bool = true,
        printEvents: Bool = false, notify: NotifyWhen? = nil, bell: Bool = false,
        environment: [String: String] = [:], workingDirectory: String? = nil, interactive: Bool = false,
        jobs: Int = 1, dashSafe: Bool = false
    ) {
        process = ProcessOptions(environment: environment, workingDirectory: workingDirectory, shell: shell,
                                 stopSignal: stopSignal, stopTimeout: stopTimeout, interactive: interactive)
        self.name = name
        self.timeout = timeout
        self.outputPrefix = outputPrefix
        self.clear = clear
        self.statusLines = statusLines
        self.printEvents = printEvents
        self.notify = notify
        self.bell = bell
        self.jobs = jobs
        self.dashSafe = dashSafe
    }

    /// A field of `process`, read and set as the run's own
    /// (`options.stopTimeout` is `options.process.stopTimeout`).
    public subscript<Value>(dynamicMember field: WritableKeyPath<ProcessOptions, Value>) -> Value {
        get { process[keyPath: field] }
        set { process[keyPath: field] = newValue }
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
