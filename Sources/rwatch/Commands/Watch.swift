import ArgumentParser
import Glibc
import RecipeKit

/// `rwatch [options] COMMAND…`: run COMMAND now and on every change,
/// the entr / watchexec job, built as a `Recipe` and run by `RecipeRunner`.
struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a command on every change (the default subcommand).",
        usage: """
            rwatch [<options>] <command> [<arg> ...]
              rwatch [<options>] -- <command> [<arg> ...]
              rwatch <subcommand> ...
            """,
        discussion: """
            Examples:
              rwatch make                             (make now and on every change)
              rwatch -w Sources -w Tests -e swift swift test
              rwatch -r -s INT --stop-timeout 2s ./server
              rwatch -d 0 -p ./notify.sh              (no debounce, wait for a change)
              rwatch --on-busy signal -s HUP ./daemon
              rwatch -- tail -f log                   (-- only for a program named like a subcommand)
            """
    )

    @Option(name: [.customShort("w"), .long], help: ArgumentHelp("A file or directory to watch, recursively (repeatable; default .).", valueName: "path"))
    var watch: [String] = []

    @OptionGroup(title: "Which changes count")
    var files: WatchFlags

    @Option(name: [.customShort("d"), .long], help: ArgumentHelp("Quiet period after the last change before running (default 50ms; 2s, 0).", valueName: "duration"), transform: DurationParser.parse)
    var debounce: Duration = .milliseconds(50)

    @Option(name: .customLong("max-wait"), help: ArgumentHelp("Run at the latest this long after the first change (default 1s).", valueName: "duration"), transform: DurationParser.parse)
    var maxWait: Duration = .seconds(1)

    @Flag(name: [.customShort("r"), .long], help: "Restart: stop the running command's process group, then start anew once it exited (--on-busy restart).")
    var restart = false

    @Option(name: .customLong("on-busy"), help: ArgumentHelp("When a change comes while the command runs: queue (default), restart, ignore, signal.", valueName: "policy"))
    var onBusy: BusyPolicy?

    @Option(name: [.customShort("s"), .long], help: ArgumentHelp("Signal that stops the command (restart, Ctrl-C) or that --on-busy signal sends (default TERM).", valueName: "signal"), transform: SignalParser.parse)
    var signal: Int32 = SIGTERM

    @Option(name: .customLong("stop-timeout"), help: ArgumentHelp("How long a stopped command gets before SIGKILL (default 5s).", valueName: "duration"), transform: DurationParser.parse)
    var stopTimeout: Duration = .seconds(5)

    @Flag(name: [.customShort("p"), .long], help: "Postpone: wait for the first change instead of running at once.")
    var postpone = false

    @Flag(name: [.customShort("c"), .long], help: "Clear the screen before each run.")
    var clear = false

    @Option(name: .long, help: ArgumentHelp("Run the command as SHELL -c 'COMMAND…' (default: no shell, argv as given).", valueName: "shell"))
    var shell: String?

    @Flag(name: [.customShort("1"), .long], help: "Run once and exit with the command's status (128+N if killed by signal N).")
    var once = false

    @Flag(name: .shortAndLong, help: "More detail: a crashing project recipe's whole backtrace.")
    var verbose = false

    /// The command and everything after it, untouched: the first word
    /// that is not an option starts it. `validate()` drops a leading `--`.
    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The command and its arguments; -- before it is needed only for a program named like a subcommand.", valueName: "command"))
    var command: [String] = []

    mutating func validate() throws {
        command = try CommandWords.command(from: command, of: Self.self)
        try WatchFlags.checkExist(watch)
        if restart, let onBusy, onBusy != .restart {
            throw ValidationError("--restart and --on-busy \(onBusy.rawValue) contradict each other")
        }
    }

    var policy: OnBusy {
        switch onBusy ?? (restart ? .restart : .queue) {
        case .queue: return .queue
        case .restart: return .restart
        case .ignore: return .ignore
        case .signal: return .signal(signal)
        }
    }

    /// The ad-hoc job as a recipe: watch, batch, run (once, if asked).
    var recipe: Recipe {
        let paths = (watch.isEmpty ? ["."] : watch).map(FileSystem.absolute)
        let options = files.watchOptions
        let (debounce, maxWait, postpone, once, command, policy) = (debounce, maxWait, postpone, once, command, policy)
        let run = RunOptions(shell: shell, stopSignal: signal, stopTimeout: stopTimeout, clearScreen: clear)
        return Recipe("ad-hoc", command.joined(separator: " ")) {
            let batches = FileWatcher.watch(paths, options: options).batched(debounce, maxWait: maxWait)
            let triggers = postpone ? batches : batches.startingNow()
            let results = triggers.run(command, onBusy: policy, options: run)
            if once { results.take(1) } else { results }
        }
    }

    func run() throws {
        if command.isEmpty { try NoCommand.run(verbose: verbose) }
        Glibc.exit(RecipeRunner.run(recipe))
    }
}
