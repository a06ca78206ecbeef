import ArgumentParser
import Glibc
import RecipeKit

/// `rwatch [options] -- COMMAND…`: run COMMAND now and on every change,
/// the entr / watchexec job, built as a `Recipe` and run by `RecipeRunner`.
struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a command on every change (the default subcommand).",
        discussion: """
            Examples:
              rwatch -- make                          (make now and on every change)
              rwatch -w Sources -w Tests -e swift -- swift test
              rwatch -r -s INT --stop-timeout 2s -- ./server
              rwatch -d 0 -p -- ./notify.sh           (no debounce, wait for a change)
              rwatch --on-busy signal -s HUP -- ./daemon
            """
    )

    @Option(name: [.customShort("w"), .long], help: ArgumentHelp("A file or directory to watch, recursively (repeatable; default .).", valueName: "path"))
    var watch: [String] = []

    @Option(name: [.customShort("e"), .long], help: ArgumentHelp("Only files with these extensions, comma separated (swift,md).", valueName: "exts"))
    var exts: [String] = []

    @Option(name: [.customShort("f"), .long], help: ArgumentHelp("Only paths matching this glob, ** allowed (repeatable).", valueName: "glob"))
    var filter: [String] = []

    @Option(name: [.customShort("i"), .long], help: ArgumentHelp("Ignore paths matching this glob (repeatable).", valueName: "glob"))
    var ignore: [String] = []

    @Flag(name: .customLong("no-vcs-ignore"), help: "Do not read .gitignore and .ignore files.")
    var noVCSIgnore = false

    @Flag(name: .customLong("no-default-ignore"), help: "Also watch .git, .hg, .svn, .build and editor swap/backup files.")
    var noDefaultIgnore = false

    @OptionGroup var backendOptions: BackendOptions

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

    @Argument(parsing: .postTerminator, help: ArgumentHelp("The command and its arguments, after --.", valueName: "command"))
    var command: [String] = []

    func validate() throws {
        guard !command.isEmpty else {
            throw ValidationError("no command given: rwatch [options] -- COMMAND [ARGS…]")
        }
        for path in watch where !FileSystem.exists(path) {
            throw ValidationError("no such file or directory: \(Quoted.path(path))")
        }
        if restart, let onBusy, onBusy != .restart {
            throw ValidationError("--restart and --on-busy \(onBusy.rawValue) contradict each other")
        }
        do {
            _ = try watchOptions.validated()
        } catch {
            throw ValidationError("\(error)")
        }
    }

    var watchOptions: WatchOptions {
        var options = WatchOptions()
        options.include = filter
        options.exclude = ignore
        options.extensions = exts.flatMap { $0.split(separator: ",") }.map { item in
            String(item.drop { $0 == "." }).trimmingCharacters()
        }.filter { !$0.isEmpty }
        options.useVCSIgnore = !noVCSIgnore
        options.useDefaultIgnore = !noDefaultIgnore
        options.backend = backendOptions.backend
        return options
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
        let options = watchOptions
        let (debounce, maxWait, postpone, once, command, policy) = (debounce, maxWait, postpone, once, command, policy)
        let run = RunOptions(shell: shell, stopSignal: signal, stopTimeout: stopTimeout, clearScreen: clear)
        return Recipe("ad-hoc", command.joined(separator: " ")) {
            let batches = FileWatcher.watch(paths, options: options).batched(debounce, maxWait: maxWait)
            let triggers = postpone ? batches : Signal.merge([batches, Signal.just(ChangeBatch([]))])
            let results = triggers.run(command, onBusy: policy, options: run)
            if once { results.first() } else { results }
        }
    }

    func run() throws {
        Glibc.exit(RecipeRunner.run(recipe))
    }
}
