#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// How a command is started and stopped: the one options type from a
/// recipe's `RunOptions` (which holds one) to `ProcessLauncher`.
public struct ProcessOptions: Sendable {
    /// Where the child's process group is.
    public enum Grouping: Sendable, Hashable {
        /// The leader of a new process group (the default): its standard
        /// input is `/dev/null` (a background group cannot read the
        /// terminal) unless it is `interactive`; every signal back to its
        /// default and none blocked; stopping it stops the whole group.
        case newGroup
        /// In rwatch's own process group, for a program of rwatch's that
        /// takes its signals over as rwatch does (a recipe binary): it is in
        /// the terminal's foreground group whenever rwatch is, so standard
        /// input is rwatch's own, and it starts with rwatch's blocked
        /// signals still blocked. Signals reach it alone, and the broadcasts
        /// of `ProcessSupervisor` (stop all, job control) leave it to its
        /// starter: it hears the terminal as rwatch does.
        case sameGroup
        /// The leader of a new session (and so of a new group), with no
        /// controlling terminal, standard input `/dev/null`, every signal at
        /// its default and none blocked: a program that outlives rwatch (the
        /// service a `watchman` command starts), through
        /// `ProcessLauncher.start`, never supervised.
        case newSession
    }

    /// Variables added to (or replacing those of) the inherited environment.
    public var environment: [String: String]
    /// Variables whose values are bytes rather than text (paths, which need
    /// not be UTF-8), laid over the inherited environment and `environment`.
    public var environmentBytes: [String: [UInt8]] = [:]
    /// The child's working directory, as bytes (a path need not be
    /// UTF-8); `nil` keeps rwatch's.
    public var workingDirectoryPath: FilePath? = nil
    /// `workingDirectoryPath` as text: what a recipe or the command line
    /// gives. Reading it decodes, for display only.
    public var workingDirectory: String? {
        get { workingDirectoryPath?.string }
        set { workingDirectoryPath = newValue.map { FilePath($0) } }
    }
    /// `nil` runs the arguments directly (no shell). Otherwise the command
    /// runs as `[shell, "-c", arguments.joined(separator: " ")]`, followed
    /// by `shell` again as the script's `$0` and `shellParameters`, if any.
    public var shell: String?
    /// With `shell`: the script's positional parameters (`$1`, `$2`, …, and
    /// `"$@"`), so that values such as paths reach it as words, never
    /// pasted into its text.
    public var shellParameters: [CommandWord] = []
    /// Sent to the whole process group to stop it (a restart, Ctrl-C, a
    /// disposed subscription), with SIGCONT so that a stopped group acts on it.
    public var stopSignal: Int32
    /// How long the group gets to exit after `stopSignal`, before SIGKILL.
    public var stopTimeout: Duration
    /// `true`: standard output and error arrive as `stdout`/`stderr` lines.
    /// `false`: the child writes straight to rwatch's own stdout and stderr.
    public var captureOutput: Bool
    /// Give the command rwatch's terminal, when rwatch has it: its process
    /// group becomes the terminal's foreground group and its stdin is the
    /// terminal (a prompt, a REPL, a debugger work; Ctrl-C and Ctrl-Z reach
    /// it). rwatch takes the terminal back, with the modes it had, when the
    /// group is gone or stops. When rwatch has no terminal, runs in the
    /// background, or another command holds it, stdin is `/dev/null` as
    /// without this.
    public var interactive = false
    /// Where the child's process group is (`newGroup` unless rwatch runs a
    /// program of its own).
    public var grouping = Grouping.newGroup
    /// Descriptors of rwatch handed to the child under other numbers,
    /// child's number → rwatch's: `[3: listener]` gives `listener` to the
    /// child as its descriptor 3. Laid over standard input, output and
    /// error as set up above; every other descriptor of rwatch's is closed
    /// in the child, whoever forgot close-on-exec.
    public var descriptors: [Int32: Int32] = [:]
    /// Listening sockets handed to the command as descriptors 3, 4, … in
    /// order, with `LISTEN_FDS`, `LISTEN_FDNAMES` and `LISTEN_PID` (the
    /// command's own pid) set: systemd's socket activation
    /// (`ListenSocket`). `descriptors` may not use those numbers.
    public var listenSockets: [ListenSocket] = []
    /// Stop what the command starts outside its process group too
    /// (`setsid`, a double fork, `daemon(3)`) when it is stopped or ends:
    /// through a cgroup of its own where rwatch can make one, else through
    /// its process tree and the orphans that come to rwatch as the
    /// subreaper (`ProcessSupervisor.becomeSubreaper()`). Only for a new
    /// group; on by default.
    public var stopsDescendants = true

    /// Options with the given values; every one has a default.
    public init(
        environment: [String: String] = [:],
        workingDirectory: String? = nil,
        shell: String? = nil,
        stopSignal: Int32 = SIGTERM,
        stopTimeout: Duration = .seconds(5),
        captureOutput: Bool = true,
        interactive: Bool = false
    ) {
        self.environment = environment
        self.workingDirectoryPath = workingDirectory.map { FilePath($0) }
        self.shell = shell
        self.stopSignal = stopSignal
        self.stopTimeout = stopTimeout
        self.captureOutput = captureOutput
        self.interactive = interactive
    }
}

extension ProcessOptions {
    /// The earlier spelling of `init(…stopTimeout:…)`.
    @available(*, deprecated, renamed: "init(environment:workingDirectory:shell:stopSignal:stopTimeout:captureOutput:interactive:)")
    public init(
        environment: [String: String] = [:], workingDirectory: String? = nil, shell: String? = nil,
        stopSignal: Int32 = SIGTERM, gracePeriod: Duration, captureOutput: Bool = true
    ) {
        self.init(environment: environment, workingDirectory: workingDirectory, shell: shell,
                  stopSignal: stopSignal, stopTimeout: gracePeriod, captureOutput: captureOutput)
    }

    /// The earlier name of `stopTimeout`.
    @available(*, deprecated, renamed: "stopTimeout")
    public var gracePeriod: Duration {
        get { stopTimeout }
        set { stopTimeout = newValue }
    }

    /// The earlier name of `interactive`.
    @available(*, deprecated, renamed: "interactive")
    public var terminal: Bool {
        get { interactive }
        set { interactive = newValue }
    }
}
