import Glibc

/// How a run action starts and stops its command.
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
    /// Prefix every output line (e.g. `"[server] "`); nil lets the command
    /// write straight to rwatch's own stdout and stderr.
    public var outputPrefix: String?
    /// Clear the screen before each run (`-c`).
    public var clearScreen = false
    /// Print a status line on stderr before and after each run.
    public var statusLines = true
    /// Extra environment variables for the command.
    public var environment: [String: String] = [:]
    /// The command's working directory; nil keeps rwatch's.
    public var workingDirectory: String?

    /// Options with the defaults above; every field can be set here.
    public init(
        name: String? = nil, shell: String? = nil, stopSignal: Int32 = SIGTERM, stopTimeout: Duration = .seconds(5),
        outputPrefix: String? = nil, clearScreen: Bool = false, statusLines: Bool = true,
        environment: [String: String] = [:], workingDirectory: String? = nil
    ) {
        self.name = name
        self.shell = shell
        self.stopSignal = stopSignal
        self.stopTimeout = stopTimeout
        self.outputPrefix = outputPrefix
        self.clearScreen = clearScreen
        self.statusLines = statusLines
        self.environment = environment
        self.workingDirectory = workingDirectory
    }
}
