import ArgumentParser
import Glibc
import RecipeKit

/// `rwatch [options] COMMAND…`: run COMMAND now and on every change,
/// the entr / watchexec job, built as a `Recipe` and run by `RecipeRunner`.
struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
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
              rwatch -e c -j 4 -- cc -c {} -o {}.o     (one run per changed file, 4 at once)
              rwatch -r --build 'cargo build' -- ./target/debug/server
              rwatch -r --socket 8080 -- ./server     (the server takes fd 3: LISTEN_FDS)
              rwatch -E PORT=8080 --env-file .env --workdir web npm start
              rwatch -- tail -f log                   (-- only for a program named like a subcommand)
            """
    )

    @Option(name: [.customShort("w"), .long], help: ArgumentHelp("A file or directory to watch, recursively (repeatable; default .).", valueName: "path"), completion: .file())
    var watch: [String] = []

    @Option(name: [.customShort("W"), .customLong("watch-non-recursive")], help: ArgumentHelp("A directory to watch without its subdirectories (repeatable).", valueName: "path"), completion: .directory)
    var watchNonRecursive: [String] = []

    @OptionGroup(title: "Which changes count")
    var files: WatchFlags

    @Option(name: [.customShort("d"), .long], help: ArgumentHelp("Quiet period after the last change before running (default 50ms; 2s, 0).", valueName: "duration"), transform: DurationParser.parse)
    var debounce: Duration = .milliseconds(50)

    @Option(name: .customLong("max-wait"), help: ArgumentHelp("Run at the latest this long after the first change (default 1s).", valueName: "duration"), transform: DurationParser.parse)
    var maxWait: Duration = .seconds(1)

    @Option(name: .customLong("delay-run"), help: ArgumentHelp("Wait this long before each run, after the debounce (default 0).", valueName: "duration"), transform: DurationParser.parse)
    var delayRun: Duration = .zero

    @Flag(name: .customLong("no-vcs-settle"), help: "Run even while git or hg is rewriting the tree (index.lock, rebase, merge, cherry-pick, .hg/wlock).")
    var noVCSSettle = false

    @Flag(name: [.customShort("r"), .long], help: "Restart: stop the running command's process group, then start anew once it exited (--on-busy restart).")
    var restart = false

    @Option(name: .long, help: ArgumentHelp("Build first: run this at start and on every change, and (re)start the command only when it passed; a change during the build restarts the build (with -r the old command keeps running meanwhile).", valueName: "command"))
    var build: String?

    @Option(name: [.customShort("o"), .customLong("on-busy"), .customLong("on-busy-update")], help: ArgumentHelp("When a change comes while the command runs: queue (default), restart, ignore (or do-nothing), signal.", valueName: "policy"))
    var onBusy: BusyPolicy?

    @Flag(name: [.customShort("p"), .long], help: "Postpone: wait for the first change instead of running at once.")
    var postpone = false

    @Flag(name: [.customShort("1"), .long], help: "Run once and exit with the command's status (128+N if killed by signal N).")
    var once = false

    @Flag(name: .customLong("stdin-quit"), help: "Exit (status 0) when standard input closes, for process managers; on a terminal, Ctrl-D.")
    var stdinQuit = false

    @Flag(name: .customLong("exit-on-error"), help: "Exit when a run fails, with the command's status.")
    var exitOnError = false

    @OptionGroup(title: "Running the command")
    var running: RunFlags

    @OptionGroup(title: "Output")
    var output: OutputFlags

    /// The command and everything after it, untouched: the first word
    /// that is not an option starts it. `validate()` drops a leading `--`.
    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The command and its arguments; -- before it is needed only for a program named like a subcommand.", valueName: "command"))
    var command: [String] = []

    mutating func validate() throws {
        command = try CommandWords.command(from: command, of: Self.self)
        try BackendOptions.checkPollValues(passedThrough: command.count)
        try WatchFlags.checkExist(watch + watchNonRecursive)
        if restart, let onBusy, onBusy != .restart {
            throw ValidationError("--restart and --on-busy \(onBusy.rawValue) contradict each other")
        }
        let perPath = try isPerPath
        if running.jobs != nil, !perPath { throw ValidationError("-j/--jobs runs per-file runs side by side: put {} (or {+}) in the command") }
    }

    /// The `--build` command's words: split as a shell would split them
    /// (no expansion), or the whole string for `--shell` to run.
    var buildWords: [CommandWord]? {
        get throws {
            guard let build else { return nil }
            let bytes = RawArguments.bytes(of: [build])[0]
            guard bytes.contains(where: { ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n")].contains($0) }) else {
                throw ValidationError("--build needs a command")
            }
            if running.shell != nil { return [CommandWord(bytes: bytes)] }
            do {
                return try ShellWords.split(bytes).map { CommandWord(bytes: $0) }
            } catch {
                throw ValidationError("--build: \(error)")
            }
        }
    }

    /// Whether the command has `{}` or `{+}`: one run per changed path, or
    /// every path as words (`CommandTemplate`); such a command waits for
    /// the first change (there is no file at start).
    var isPerPath: Bool {
        get throws {
            do {
                let paste = running.unsafePasteIntoCode
                let build = try buildWords.map { try CommandTemplate($0, shell: running.shell, pasteIntoCode: paste).isPerPath } ?? false
                return try CommandTemplate(RawArguments.trailing(command), shell: running.shell, pasteIntoCode: paste).isPerPath || build
            } catch let problem as CommandTemplate.Problem {
                throw ValidationError(problem.description)
            }
        }
    }

    var policy: OnBusy {
        switch onBusy ?? (restart ? .restart : .queue) {
        case .queue: return .queue
        case .restart: return .restart
        case .ignore, .doNothing: return .ignore
        case .signal: return .signal(running.signal)
        }
    }

    /// The paths watched recursively, absolute, as typed (bytes, see
    /// `RawArguments`); `.` when no path is given with -w or -W.
    var paths: [FilePath] {
        RawArguments.paths(watch.isEmpty && watchNonRecursive.isEmpty ? ["."] : watch).map(FileSystem.absolute)
    }

    /// The paths watched without recursion, absolute, as typed.
    var nonRecursivePaths: [FilePath] { RawArguments.paths(watchNonRecursive).map(FileSystem.absolute) }

    /// The ad-hoc job as a recipe: watch, wait for git, batch, (wait,) run;
    /// once, or until a run fails, if asked.
    func recipe(sockets: [ListenSocket] = []) throws -> Recipe {
        // A watched path that goes away (make clean, a checkout without
        // it, a config file rewritten slowly) is waited for, as tail -F
        // waits: its deletion runs the command, and its return does too.
        let settle = !noVCSSettle
        let watched = files.changes(recursive: paths, nonRecursive: nonRecursivePaths, onRootDeleted: .waitForReappearance,
                                    defersDuringVCS: settle)
        let roots = Set(watched.paths)
        let quiet = output.quiet
        // A command that waits for a change says when the watch is armed;
        // one that runs at once is its own sign of life (but -v says it too).
        let waitsForChange = try postpone || isPerPath
        let armed = quiet || !(waitsForChange || output.verbose) ? watched.batches
            : ArmingReport.announcing(watched.batches, paths: watched.paths, placement: watched.placement, waitsForChange: waitsForChange)
        let announced = armed.on(next: { events in
            guard !quiet else { return }
            for event in events where roots.contains(event.path) {
                switch event.kind {
                case .deleted, .movedFrom: Terminal.status("\(Quoted.path(Terminal.relative(event.path))) is gone; waiting for it to come back")
                case .created, .movedTo: Terminal.status("\(Quoted.path(Terminal.relative(event.path))) is back")
                default: break
                }
            }
        })
        let (debounce, maxWait, delayRun, once, exitOnError, command, policy) =
            (debounce, maxWait, delayRun, once, exitOnError, command, policy)
        // The command's words as typed: a path in them need not be UTF-8.
        let words = RawArguments.trailing(command)
        // The build gets no socket: only the command serves.
        let buildOptions = try running.runOptions(statusLines: !output.quiet)
        var serving = buildOptions
        serving.listenSockets = sockets
        let run = serving
        let builder = try buildWords
        return Recipe("ad-hoc", command.joined(separator: " ")) {
            // The watcher's arrays (a save whole): a zero debounce never splits a save.
            let settled = settle ? announced.settlingVCS(of: watched.paths, servedBy: watched.placement.served) : announced
            let batches = settled.batched(debounce, maxWait: maxWait, holdingNewFiles: .shared)
            let started = waitsForChange ? batches : batches.startingNow()
            let triggers = delayRun > .zero ? started.delay(delayRun, scheduler: QueueScheduler(label: "rwatch.delay-run")) : started
            // With --build, the command (re)starts only after a build that
            // passed; a change during a build restarts the build.
            let results = builder.map { triggers.run($0, onBusy: .restart, options: buildOptions).restarting(words, onBusy: policy, options: run) }
                ?? triggers.run(words, onBusy: policy, options: run)
            if once {
                results.take(1)
            } else if exitOnError {
                results.filter { !$0.succeeded }.take(1)
            } else {
                results
            }
        }
    }

    func run() throws {
        if command.isEmpty { try NoCommand.run(verbose: output.verbose) }
        try output.apply()
        if Diagnostics.isEnabled { Diagnostics.verbose(WatchPlan.describe(paths: paths, nonRecursive: nonRecursivePaths, options: files.watchOptions)) }
        // What a run starts and leaves (a daemon, a double fork) comes to
        // rwatch, which stops it with the run and reaps it.
        ProcessSupervisor.becomeSubreaper()
        if Diagnostics.isEnabled { Diagnostics.verbose(ProcessSupervisor.containment) }
        // Bound once, before any run: every run inherits them.
        let sockets = try running.listenSockets()
        ProcessSupervisor.onStop { sockets.forEach { $0.close() } }
        for (index, socket) in sockets.enumerated() where !output.quiet {
            Terminal.status("listening on \(socket.address) (fd \(3 + index) of every run, LISTEN_FDS)")
        }
        let status = RecipeRunner.run(try recipe(sockets: sockets), keys: !running.noKeys, quitWhenStdinCloses: stdinQuit)
        sockets.forEach { $0.close() }
        ProcessSupervisor.exit(status)
    }
}
