import ArgumentParser
import Glibc
import RecipeKit
import Service

/// `rwatch serve`: a watchman-compatible service in the foreground, for
/// clients that find it through `WATCHMAN_SOCK`.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a watchman-compatible service in the foreground (clients use WATCHMAN_SOCK).",
        discussion: """
            Speaks watchman's protocol (JSON and BSER v1/v2) on a Unix socket: \
            $XDG_RUNTIME_DIR/rwatch/sock, else /tmp/rwatch-$USER/sock, unless --sockname \
            says otherwise. Only the same user is served. A second rwatch serve on a live \
            socket says so and exits 0. SIGTERM, SIGINT or shutdown-server stop it: clients \
            read end of file, the socket and pid files are removed. See SERVICE in rwatch(1).

            Examples:
              rwatch serve &
              export WATCHMAN_SOCK=$(rwatch serve --print-sockname)
              rwatch watchman --no-spawn version    (see WATCHMAN COMMAND in rwatch(1))
            """
    )

    @Option(name: [.customShort("U"), .customLong("sockname"), .customLong("unix-listener-path")],
            help: ArgumentHelp("The socket to listen on.", valueName: "path"), completion: .file())
    var sockname: String?

    @Option(name: [.customShort("o"), .customLong("logfile")], help: ArgumentHelp("Append the log here instead of stderr.", valueName: "path"), completion: .file())
    var logfile: String?

    @Option(help: ArgumentHelp("Where triggers (and so their roots) are kept across restarts.", valueName: "path"), completion: .file())
    var statefile: String?

    @Option(help: ArgumentHelp("Write the service's pid here while it runs.", valueName: "path"), completion: .file())
    var pidfile: String?

    @Flag(help: "Print the socket path (for export WATCHMAN_SOCK=…) and exit.")
    var printSockname = false

    @Option(help: ArgumentHelp("What the log gets: 0 nothing, 1 errors (the default), 2 also debug lines (watchman's levels).",
                               valueName: "level"))
    var logLevel: Int?

    /// Watchman's server flags, so that what starts watchman (its own test
    /// harness, a supervisor's unit file) can start rwatch serve unchanged.
    @Flag(help: "Accepted for watchman's command line: the service always runs in the foreground.")
    var foreground = false

    @Option(help: ArgumentHelp("Put the socket, log, state and pid files in DIR/USER-state (made 0700, or as sock_access says), unless given.",
                               valueName: "dir"), completion: .directory)
    var testStateDir: String?

    @Option(help: .hidden)
    var namedPipePath: String?

    /// A descriptor to write one byte to once the service listens: how the
    /// `watchman` command that started it learns it may connect.
    @Option(help: .hidden)
    var readyFd: Int32?

    func validate() throws {
        if let logLevel, !(0...2).contains(logLevel) {
            throw ValidationError("--log-level takes 0 (off), 1 (errors) or 2 (debug), not \(logLevel)")
        }
    }

    func run() throws {
        // Where the socket is does not depend on the global configuration:
        // a damaged file does not stop `--print-sockname` (the service then
        // refuses to start, saying why).
        let read = Result { () throws(ServeError) in try GlobalSettings.read(environment: ServiceConfiguration.processEnvironment) }
        if printSockname {
            let access = (try? read.get())?.socketAccess ?? SocketAccess()
            Terminal.output(Quoted.escaped(try serviceConfiguration(access: access).sockname), prefix: "", toStandardError: false)
            return
        }
        let settings = try read.get()
        var configuration = try serviceConfiguration(access: settings.socketAccess)
        configuration.socketAccess = settings.socketAccess
        if let refusal = settings.refusal(nice: GlobalSettings.currentNice) { throw RWatchError(refusal) }
        let server = try WatchmanServer(configuration: configuration)
        // A stop signal asks the service to stop; it ends the way
        // shutdown-server ends it.
        ProcessSupervisor.handOverStopSignals { _, _ in server.requestShutdown() }
        if let readyFd { _ = fcntl(readyFd, F_SETFD, FD_CLOEXEC) }  // no child of the service inherits it
        // Once listening, with a log file, the service's own output goes
        // there too: it then holds no pipe of whoever started it (a
        // `watchman` command or a site spawner reads to end of file), and
        // a trigger's output without a file of its own joins the log.
        let ready: @Sendable () -> Void = { [logfile = configuration.logfile, readyFd] in
            if let logfile { Self.sendStandardOutput(to: logfile) }
            if let readyFd {
                var byte = UInt8(ascii: "\n")
                _ = write(readyFd, &byte, 1)
                close(readyFd)
            }
        }
        switch try server.serve(ready: ready) {
        case .alreadyRunning(let pid):
            let owner = pid.map { " (pid \($0))" } ?? ""
            Terminal.status("a service is already running on \(Quoted.escaped(configuration.sockname))\(owner)")
        case .stopped:
            ProcessSupervisor.stopAll()
        }
        ProcessSupervisor.exit(0)
    }

    /// Points stdout and stderr at `logfile` (appending); left as they are
    /// when it cannot be opened.
    private static func sendStandardOutput(to logfile: FilePath) {
        let fd = logfile.withPlatformString { open($0, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { return }
        dup2(fd, STDOUT_FILENO)
        dup2(fd, STDERR_FILENO)
        close(fd)
    }

    private func serviceConfiguration(access: SocketAccess) throws -> ServiceConfiguration {
        func path(_ value: String?) -> FilePath? {
            value.flatMap { RawArguments.paths([$0]).first }.map { FileSystem.absolute($0) }
        }
        let stateDirectory = try stateDirectory(access: access)
        func inState(_ name: String) -> FilePath? { stateDirectory.map { $0.appending(name) } }
        var configuration = ServiceConfiguration(
            sockname: path(sockname) ?? inState("sock") ?? ServiceConfiguration.defaultSockname(),
            logfile: path(logfile) ?? inState("log"), statefile: path(statefile) ?? inState("state"),
            pidfile: path(pidfile) ?? inState("pid"))
        configuration.buildinfo = Version.line
        switch logLevel {
        case 0: configuration.logLevel = .off
        case 2: configuration.logLevel = .debug
        default: configuration.logLevel = .error
        }
        return configuration
    }

    /// `--test-state-dir DIR`: `DIR/USER-state` (watchman's layout), made
    /// or brought to the modes and group `access` asks for.
    private func stateDirectory(access: SocketAccess) throws -> FilePath? {
        guard let testStateDir else { return nil }
        // As typed (bytes), like the other paths.
        let given = RawArguments.paths([testStateDir]).first ?? FilePath(testStateDir)
        let directory = StateDirectory.path(under: FileSystem.absolute(given))
        try access.prepareStateDirectory(directory)
        return directory
    }
}
