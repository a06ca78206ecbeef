import ArgumentParser
import Glibc
import RecipeKit

/// How `rwatch` starts the command and what it says around each run: the
/// flags behind the `RunOptions` that recipes use too.
struct RunFlags: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Run the command as SHELL -c 'COMMAND…' (default: no shell, argv as given; --shell=none says so, as in watchexec).", valueName: "shell"))
    var shell: String?

    @Option(name: [.customShort("E"), .customLong("env")], help: ArgumentHelp("Set an environment variable for the command (repeatable; wins over --env-file).", valueName: "key=value"))
    var env: [String] = []

    @Option(name: .customLong("env-file"), help: ArgumentHelp("Read variables for the command from a dotenv file (repeatable).", valueName: "file"), completion: .file())
    var envFiles: [String] = []

    @Option(name: .customLong("workdir"), help: ArgumentHelp("Run the command in this directory (the watched paths stay relative to rwatch's).", valueName: "dir"), completion: .directory)
    var workdir: String?

    @Option(name: [.customShort("s"), .long, .customLong("stop-signal")], help: ArgumentHelp("Signal that stops the command (restart, Ctrl-C) or that --on-busy signal sends (default TERM; --stop-signal is the same).", valueName: "signal"), transform: SignalParser.parse)
    var signal: Int32 = SIGTERM

    @Option(name: .customLong("stop-timeout"), help: ArgumentHelp("How long a stopped command gets before SIGKILL (default 5s).", valueName: "duration"), transform: DurationParser.parse)
    var stopTimeout: Duration = .seconds(5)

    @Option(name: .long, help: ArgumentHelp("Stop a run that takes longer than this (the stop signal, then SIGKILL after --stop-timeout).", valueName: "duration"), transform: DurationParser.parse)
    var timeout: Duration?

    @Flag(name: [.customShort("c"), .long], help: "Clear the screen before each run; -cc also clears the scrollback.")
    var clear: Int

    @Option(name: [.customShort("N"), .long], defaultAsFlag: NotifyWhen.both, help: ArgumentHelp("Desktop notification (notify-send, else a bell) when runs start, end or both (default both).", valueName: "when"))
    var notify: NotifyWhen?

    @Flag(help: "Ring the terminal bell when a run ends.")
    var bell = false

    @Flag(name: .customLong("print-events"), help: "Print the file events behind each run before it starts.")
    var printEvents = false

    @Flag(name: [.customShort("I"), .long], help: "Keep the keyboard for rwatch while the command runs (its stdin is /dev/null) instead of handing it the terminal.")
    var interactive = false

    @Flag(name: [.customShort("n"), .customLong("no-keys")], help: "Turn the keys off (r/space run, p pause, c clear, q quit).")
    var noKeys = false

    @Option(name: [.customShort("j"), .long], help: ArgumentHelp("With {} or {+} in the command: run up to N of a change's per-file runs at once (default 1).", valueName: "n"), completion: .list(["2", "4", "8"]))
    var jobs: Int?

    @Option(name: .long, help: ArgumentHelp("Listen here once and hand the socket to every run as fd 3 (then 4, …) with LISTEN_FDS, LISTEN_PID, LISTEN_FDNAMES, so restarts refuse no connection: [tcp:]ADDR:PORT, PORT (127.0.0.1), unix:PATH (repeatable).", valueName: "addr"))
    var socket: [String] = []

    @Flag(name: .customLong("dash-safe"), help: "With {} or {+}: give a relative path that begins with - as ./-name (for a program that takes no --).")
    var dashSafe = false

    @Flag(name: .customLong("unsafe-paste-into-code"), help: "Paste {} and {+} into code the program parses (sh -c '…{}…', python3 -c …) instead of refusing: a file named $(cmd) then runs cmd.")
    var unsafePasteIntoCode = false

    mutating func validate() throws {
        // watchexec's spelling of "no shell": the words run as given.
        if shell == "none" { shell = nil }
        if shell == "" { throw ValidationError("--shell needs a shell's name (or none)") }
        if let timeout, timeout <= .zero { throw ValidationError("--timeout must be longer than 0") }
        if let jobs, jobs < 1 { throw ValidationError("-j/--jobs must be at least 1 (got \(jobs))") }
        _ = try environment()
        if let workdir, !FileSystem.isDirectory(workdir) {
            throw ValidationError("--workdir: no such directory: \(Quoted.path(workdir))")
        }
    }

    /// The command's extra variables: the --env-files in order, then -E.
    func environment() throws -> [String: String] {
        var variables: [String: String] = [:]
        for file in envFiles {
            let text = try FileSystem.read(file)
            let lookup = { (name: String) -> String? in variables[name] ?? getenv(name).map { String(cString: $0) } }
            for (key, value) in try DotEnv.parse(text, file: file, lookup: lookup) { variables[key] = value }
        }
        for assignment in env {
            guard let equals = assignment.firstIndex(of: "="), DotEnv.isName(assignment[..<equals]) else {
                throw ValidationError("bad --env \(Quoted.path(assignment)): expected KEY=VALUE")
            }
            variables[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
        }
        return variables
    }

    /// Binds and listens on every `--socket`, in order; throws the first
    /// that cannot listen (in use, no permission), in one line.
    func listenSockets() throws -> [ListenSocket] {
        var sockets: [ListenSocket] = []
        for spec in socket {
            do {
                sockets.append(try ListenSocket.bind(spec))
            } catch {
                sockets.forEach { $0.close() }
                throw RWatchError(error.description)
            }
        }
        return sockets
    }

    /// The flags as `RunOptions`; `statusLines` comes from `-q`.
    func runOptions(statusLines: Bool) throws -> RunOptions {
        var options = RunOptions(
            shell: shell, stopSignal: signal, stopTimeout: stopTimeout, timeout: timeout,
            clear: clear >= 2 ? .screenAndScrollback : clear == 1 ? .screen : .off,
            statusLines: statusLines, printEvents: printEvents, notify: notify, bell: bell,
            environment: try environment(), workingDirectory: workdir.map(FileSystem.absolute),
            // The command gets the terminal unless -I keeps it for rwatch's keys.
            interactive: !interactive,
            jobs: jobs ?? 1, dashSafe: dashSafe
        )
        options.unsafePasteIntoCode = unsafePasteIntoCode
        return options
    }
}

extension NotifyWhen: ExpressibleByArgument {}
