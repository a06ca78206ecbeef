#if canImport(Glibc)
import Glibc
#endif

/// How `ProcessSource.run` starts and stops a command.
public struct ProcessOptions: Sendable {
    /// Variables added to (or replacing those of) the inherited environment.
    public var environment: [String: String]
    /// Variables whose values are bytes rather than text (paths, which need
    /// not be UTF-8), laid over the inherited environment and `environment`.
    public var environmentBytes: [String: [UInt8]] = [:]
    /// The child's working directory; `nil` keeps rwatch's.
    public var workingDirectory: String?
    /// `nil` runs the arguments directly (no shell). Otherwise the command
    /// runs as `[shell, "-c", arguments.joined(separator: " ")]`.
    public var shell: String?
    /// Sent to the whole process group when the subscription is disposed.
    public var stopSignal: Int32
    /// How long the group gets after `stopSignal` before SIGKILL.
    public var gracePeriod: Duration
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
    public var terminal = false

    /// Options with the given values; every one has a default.
    public init(
        environment: [String: String] = [:],
        workingDirectory: String? = nil,
        shell: String? = nil,
        stopSignal: Int32 = SIGTERM,
        gracePeriod: Duration = .seconds(5),
        captureOutput: Bool = true
    ) {
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.shell = shell
        self.stopSignal = stopSignal
        self.gracePeriod = gracePeriod
        self.captureOutput = captureOutput
    }
}
