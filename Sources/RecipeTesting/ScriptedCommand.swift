import RecipeKit

/// What a command does in a `RecipeTest`: nothing is spawned; a run of a
/// command whose words start with `words` behaves as scripted.
///
///     .command(["swift", "build"], takes: .seconds(2))
///     .command(["swift", "test"], exits: 1, output: ["1 test failed"])
///     .command(["./server"], runsUntilStopped: true, ignoresStop: .seconds(1))
///     .command(["make"], runs: [.exits(1), .exits(0)])   // fails once, then passes
///
/// A command no script names exits 0 at once.
public struct ScriptedCommand: Sendable {
    /// One run's behaviour.
    public struct Behaviour: Sendable {
        /// Its exit status when it ends on its own.
        public var status: Int32
        /// How long it runs (ignored with `runsUntilStopped`).
        public var duration: Duration
        /// Lines it writes to standard output as it starts.
        public var output: [String]
        /// Lines it writes to standard error as it starts.
        public var errors: [String]
        /// Whether it runs until rwatch stops it (a server).
        public var runsUntilStopped: Bool
        /// How long it ignores the stop signal (nil: it obeys at once);
        /// rwatch's SIGKILL after the stop timeout ends it whatever this says.
        public var ignoresStop: Duration?
        /// How long a child it started keeps its process group alive after
        /// it exits: the run ends when the whole group is gone, as rwatch's
        /// runs do (a stop ends the child with it).
        public var childOutlives: Duration = .zero

        /// A run that exits with `status` after `duration`.
        public static func exits(_ status: Int32, after duration: Duration = .zero, output: [String] = [],
                                 errors: [String] = [], childOutlives: Duration = .zero) -> Behaviour {
            Behaviour(status: status, duration: duration, output: output, errors: errors, runsUntilStopped: false, ignoresStop: nil,
                      childOutlives: childOutlives)
        }

        /// A run that goes on until stopped (a server), ignoring the stop signal for `ignoresStop`.
        public static func serves(output: [String] = [], ignoresStop: Duration? = nil) -> Behaviour {
            Behaviour(status: 0, duration: .zero, output: output, errors: [], runsUntilStopped: true, ignoresStop: ignoresStop)
        }
    }

    /// The first words a command must start with.
    public var words: [String]
    /// Its runs' behaviours, in order; the last one repeats.
    public var runs: [Behaviour]

    /// A command whose runs behave as `runs`, in order (the last repeats).
    public static func command(_ words: [String], runs: [Behaviour]) -> ScriptedCommand {
        precondition(!runs.isEmpty, "a scripted command needs at least one run")
        return ScriptedCommand(words: words, runs: runs)
    }

    /// A command that exits with `status` after `takes`, writing `output`
    /// (and `errors` on standard error) as it starts; with
    /// `runsUntilStopped`, a server that runs until rwatch stops it,
    /// ignoring the stop signal for `ignoresStop`; with `childOutlives`, a
    /// child it started holds its group that much longer.
    public static func command(_ words: [String], exits status: Int32 = 0, takes duration: Duration = .zero,
                               output: [String] = [], errors: [String] = [], runsUntilStopped: Bool = false,
                               ignoresStop: Duration? = nil, childOutlives: Duration = .zero) -> ScriptedCommand {
        ScriptedCommand(words: words, runs: [Behaviour(status: status, duration: duration, output: output, errors: errors,
                                                       runsUntilStopped: runsUntilStopped, ignoresStop: ignoresStop,
                                                       childOutlives: childOutlives)])
    }

    /// Whether a run of `command` is one of this script's.
    func matches(_ command: [String]) -> Bool {
        command.count >= words.count && Array(command.prefix(words.count)) == words
    }
}
