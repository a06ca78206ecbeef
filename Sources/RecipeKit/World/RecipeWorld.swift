import Glibc

/// Everything a recipe acts on, handed to its pipelines when its body is
/// evaluated: the clock its timers run on, where its file changes, log
/// lines and input come from (`SourceWorld`), what starts its commands,
/// where its lines go, its arguments and environment, and the keys.
///
/// `live` is the machine's: `QueueScheduler.recipe`, inotify, real process
/// groups, the terminal. `RecipeTesting` builds a world on virtual time with
/// a virtual tree and scripted commands, and runs the same `Recipe` in it.
/// Nothing in RecipeKit asks which world it is in.
///
/// `current` is a task-local value, bound by `evaluate(_:)` around the
/// code that builds the signals; the operators, sources and actions read
/// it when they are built (a default `scheduler:` argument, a `run`), and
/// keep what they read.
public struct RecipeWorld: Sendable {
    /// Where file changes, log lines and standard input come from.
    public var sources: SourceWorld
    /// The clock of every timer a recipe names no scheduler for, and of
    /// the actions' timeouts and durations.
    public var scheduler: any Scheduler
    /// Where every run action's state changes, one transition at a time.
    package var queue: RecipeQueue
    /// What starts a run's command.
    package var commands: any CommandLauncher
    /// Where printed lines, commands' output and status lines go.
    package var output: any RecipeOutput
    /// The arguments after the recipe on the command line, as bytes.
    package var paths: [FilePath]
    /// Looks up an environment variable (nil: unset).
    package var environment: @Sendable (String) -> String?
    /// The keys' commands to the run actions that start chains.
    package var controls: PublishSubject<RunControl.Command>
    /// Where runs' events files are made; nil: no events file.
    package var eventsDirectory: EventsDirectory?

    /// A world made of these parts.
    package init(sources: SourceWorld, scheduler: any Scheduler, queue: RecipeQueue, commands: any CommandLauncher,
                 output: any RecipeOutput, paths: [FilePath], environment: @escaping @Sendable (String) -> String?,
                 controls: PublishSubject<RunControl.Command>, eventsDirectory: EventsDirectory?) {
        self.sources = sources
        self.scheduler = scheduler
        self.queue = queue
        self.commands = commands
        self.output = output
        self.paths = paths
        self.environment = environment
        self.controls = controls
        self.eventsDirectory = eventsDirectory
    }

    /// The machine's world.
    public static let live = RecipeWorld(
        sources: .live, scheduler: QueueScheduler.recipe, queue: .live, commands: LiveCommandLauncher(), output: LiveOutput(),
        // A variable is a setting as text (`Recipe.environment`); paths come as bytes (`paths`).
        paths: commandLinePaths(), environment: { name in getenv(name).map { String(cString: $0) } },
        controls: RunControl.commands, eventsDirectory: .shared
    )

    /// The world signals are built in now: `live` unless `evaluate` bound another.
    @TaskLocal public static var current: RecipeWorld = .live

    /// Runs `body` (a recipe's body, a subscription, a test's step) with
    /// this world as `current`, and its sources as `SourceWorld.current`.
    public func evaluate<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Self.$current.withValue(self) {
            try SourceWorld.$current.withValue(sources, operation: body)
        }
    }

    /// `CommandLine`'s arguments after the recipe's own name, as bytes, a
    /// leading `--` dropped.
    private static func commandLinePaths() -> [FilePath] {
        var given = (1..<Int(CommandLine.argc)).compactMap { CommandLine.unsafeArgv[$0].map { FilePath(platformString: $0) } }
        if CommandLine.argc > 1, let first = CommandLine.unsafeArgv[1], strcmp(first, "--") == 0 { given.removeFirst() }
        return given
    }
}
