/// One finished command run, with the chain of runs that led to it.
public struct RunResult: Sendable {
    /// One command of a chain: what ran, how it ended, how long it took.
    public struct Step: Sendable, Hashable {
        /// The step's name: `RunOptions.name`, else the program's name.
        public var name: String
        public var arguments: [String]
        public var status: ExitStatus
        public var duration: Duration
        /// The changed paths one run of a `{}` or `{+}` set was for;
        /// empty for a whole set and for a command without placeholders.
        public var paths: [FilePath] = []
    }

    /// Earlier steps of a `then` chain, then this run's own step (last).
    public var steps: [Step]
    /// The file changes that started the chain, if any.
    public var batch: ChangeBatch?
    /// For a command with `{}` or `{+}`: each run of the set, in the order
    /// they ended, with the paths it was for; its own step (`step`) is the
    /// whole set's, with the worst status of its runs. Empty otherwise.
    public var runs: [Step] = []

    /// This run's own step.
    public var step: Step { steps[steps.count - 1] }
    /// How the command ended.
    public var status: ExitStatus { step.status }
    /// True when the command exited with 0.
    public var succeeded: Bool { status.succeeded }
    /// The command that ran.
    public var arguments: [String] { step.arguments }

    /// One line for the whole chain: `lint ✓ 120 ms → build ✗ 1.30 s`.
    public var summary: String {
        steps.map { step in
            "\(step.name) \(step.status.succeeded ? "✓" : "✗") \(Terminal.format(step.duration))"
        }.joined(separator: " → ")
    }

    /// A command's name in status lines and summaries: the words as the
    /// user gave them, quoted and shortened (`CommandName`), never a word
    /// guessed from inside a `sh -c` script.
    static func name(of arguments: [String], shell: String? = nil) -> String {
        CommandName.display(arguments, shell: shell)
    }
}
