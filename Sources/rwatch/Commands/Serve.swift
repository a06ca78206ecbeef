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
              watchman --no-spawn version
            """
    )

    @Option(name: [.customShort("U"), .customLong("sockname")], help: ArgumentHelp("The socket to listen on.", valueName: "path"), completion: .file())
    var sockname: String?

    @Option(name: [.customShort("o"), .customLong("logfile")], help: ArgumentHelp("Append the log here instead of stderr.", valueName: "path"), completion: .file())
    var logfile: String?

    @Option(help: ArgumentHelp("Where watches and triggers are kept across restarts.", valueName: "path"), completion: .file())
    var statefile: String?

    @Option(help: ArgumentHelp("Write the service's pid here while it runs.", valueName: "path"), completion: .file())
    var pidfile: String?

    @Flag(help: "Print the socket path (for export WATCHMAN_SOCK=…) and exit.")
    var printSockname = false

    func run() throws {
        let configuration = serviceConfiguration()
        if printSockname {
            Terminal.output(Quoted.escaped(configuration.sockname), prefix: "", toStandardError: false)
            return
        }
        let server = try WatchmanServer(configuration: configuration)
        // A stop signal asks the service to stop; it ends the way
        // shutdown-server ends it.
        ProcessSupervisor.handOverStopSignals { _, _ in server.requestShutdown() }
        switch try server.serve() {
        case .alreadyRunning(let pid):
            let owner = pid.map { " (pid \($0))" } ?? ""
            Terminal.status("a service is already running on \(Quoted.escaped(configuration.sockname))\(owner)")
        case .stopped:
            ProcessSupervisor.stopAll()
        }
        ProcessSupervisor.exit(0)
    }

    private func serviceConfiguration() -> ServiceConfiguration {
        let environment = ServiceConfiguration.processEnvironment
        func path(_ value: String?) -> FilePath? {
            value.flatMap { RawArguments.paths([$0]).first }.map { FileSystem.absolute($0) }
        }
        var configuration = ServiceConfiguration(
            sockname: path(sockname) ?? ServiceConfiguration.defaultSockname(environment: environment),
            logfile: path(logfile), statefile: path(statefile), pidfile: path(pidfile))
        configuration.buildinfo = Version.line
        return configuration
    }
}
