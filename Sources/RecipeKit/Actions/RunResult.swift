/// One finished command run, with the chain of runs that led to it.
public struct RunResult: Sendable {
    /// One command of a chain: what ran, how it ended, how long it took.
    public struct Step: Sendable, Hashable {
        /// The step's name: `RunOptions.name`, else the program's name.
        public var name: String
        public var arguments: [String]
        public var status: ExitStatus
        public var duration: Duration
    }

    /// Earlier steps of a `then` chain, then this run's own step (last).
    public var steps: [Step]
    /// The file changes that started the chain, if any.
    public var batch: ChangeBatch?

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

    /// A short name for a command: its program's base name, or for
    /// `sh -c "make all"` the script's first word.
    static func name(of arguments: [String]) -> String {
        var words = arguments
        if words.count >= 3, words[1] == "-c" { words = words[2].split(separator: " ").map(String.init) }
        guard let program = words.first else { return "?" }
        return program.split(separator: "/").last.map(String.init) ?? program
    }
}
