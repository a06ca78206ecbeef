import Glibc
import RecipeKit
import Service
import SystemPackage
import WatchSources
import WatchmanProtocol

/// rwatch as watchman's command line: what runs when the binary is called
/// `watchman` and for `rwatch watchman ARGS…`. It sends one request to the
/// service and prints the answer; it never answers a command itself.
/// See WATCHMAN COMMAND in rwatch(1).
enum WatchmanCommand {
    /// The watchman command's arguments when this process is that
    /// command (run as `watchman`, or as `rwatch watchman …`), else nil.
    static func arguments(program: [UInt8], arguments: [[UInt8]]) -> [[UInt8]]? {
        let name = Array("watchman".utf8)
        if program.split(separator: UInt8(ascii: "/")).last.map(Array.init) == name { return arguments }
        return arguments.first == name ? Array(arguments.dropFirst()) : nil
    }

    /// Runs with `arguments` (after `watchman`) and exits: 0 for an answer
    /// without `error`, 1 for one with it or no answer, 2 for a usage error.
    static func main(_ arguments: [[UInt8]]) -> Never {
        let parsed: WatchmanArguments
        do {
            parsed = try WatchmanArguments.parse(arguments)
        } catch {
            Terminal.error(error.description)
            exit(2)
        }
        if parsed.help {
            Swift.print(WatchmanHelp.text)
            exit(0)
        }
        if parsed.version {
            Swift.print(Version.number)
            exit(0)
        }
        if parsed.foreground { runService(parsed) }
        do {
            exit(try run(parsed) ? 0 : 1)
        } catch {
            Terminal.error(error.description)
            exit(1)
        }
    }

    /// Sends the request and prints the answer (and, with `--persistent`,
    /// every PDU after it until the service closes the connection);
    /// returns whether the answer had no `error`.
    private static func run(_ arguments: WatchmanArguments) throws(WatchmanFailure) -> Bool {
        var arguments = arguments
        let request = WatchmanArguments.resolvingRoot(try self.request(&arguments))
        let sockname = try socket(arguments)
        let start = arguments.noSpawn ? nil : ServiceStart(sockname: sockname, arguments: arguments)
        let connection = try ServiceStart.connect(sockname, start: start)
        defer { connection.close() }
        let output = WatchmanOutput(encoding: arguments.outputEncoding ?? .json,
                                    pretty: arguments.pretty ?? (isatty(STDOUT_FILENO) == 1))
        do {
            try connection.send(request, encoding: (arguments.serverEncoding ?? .json).wire)
            var answer = try connection.receive(deadline: nil)
            while !arguments.persistent && ServiceConnection.isUnilateral(answer) {
                answer = try connection.receive(deadline: nil)
            }
            output.write(answer)
            let succeeded = answer["error"] == nil
            guard arguments.persistent, succeeded else { return succeeded }
            while true { output.write(try connection.receive(deadline: nil)) }
        } catch .closed where arguments.persistent {
            return true
        } catch {
            throw .connection("the connection to the service on \(sockname.string) failed: \(error)")
        }
    }

    /// The request: the words, or with `--json-command` the one PDU on
    /// stdin (BSER input making BSER the default encodings, as watchman does).
    private static func request(_ arguments: inout WatchmanArguments) throws(WatchmanFailure) -> WatchmanValue {
        guard arguments.jsonCommand else {
            guard !arguments.words.isEmpty else { throw .connection("no command given (see watchman --help)") }
            return arguments.request
        }
        var input: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            input += buffer[0..<count]
        }
        guard input.count >= 2, input[0] == 0, input[1] == 1 || input[1] == 2 else {
            // JSON: the whole of stdin, which may span lines.
            do { return try JSONLines.decode(input) } catch { throw .connection("stdin holds no JSON request: \(error)") }
        }
        let bser: WatchmanArguments.Encoding = input[1] == 1 ? .bser : .bserV2
        arguments.serverEncoding = arguments.serverEncoding ?? bser
        arguments.outputEncoding = arguments.outputEncoding ?? bser
        do { return try BSER.decode(input).0 } catch { throw .connection("stdin holds no BSER request: \(error)") }
    }

    /// The socket the request goes to: `--sockname`, else the one in the
    /// `--test-state-dir` (whose modes are brought to what the global
    /// configuration asks for, as the service does), else the default.
    private static func socket(_ arguments: WatchmanArguments) throws(WatchmanFailure) -> FilePath {
        if let sockname = arguments.sockname { return sockname }
        guard let parent = arguments.testStateDir else { return ServiceLocation.socketForWatches() }
        let directory = StateDirectory.path(under: parent)
        do {
            let settings = try GlobalSettings.read(environment: ServiceConfiguration.processEnvironment)
            try settings.socketAccess.prepareStateDirectory(directory)
        } catch {
            throw .cannotStart(error.description)
        }
        return directory.appending("sock")
    }

    /// `--foreground`: runs `rwatch serve` itself with the server options.
    private static func runService(_ arguments: WatchmanArguments) -> Never {
        ProcessSupervisor.takeOverSignals()  // as rwatch's main does, before any thread
        var words = serveWords(arguments)
        if arguments.logfile == nil, let index = words.firstIndex(of: "--logfile") { words.removeSubrange(index...index + 1) }
        do {
            let serve = try Serve.parse(Array(words.dropFirst()))
            try serve.run()
        } catch {
            Terminal.error("\(error)")
        }
        exit(1)
    }

    /// `rwatch serve`'s words for `--foreground`: with `--test-state-dir`,
    /// that directory and only the files named on the command line (the
    /// rest go in it, as watchman puts them).
    private static func serveWords(_ arguments: WatchmanArguments) -> [String] {
        let sockname = arguments.sockname ?? ServiceLocation.socketForWatches()
        let words = ServiceStart(sockname: sockname, arguments: arguments).serveArguments.map { String(decoding: $0, as: UTF8.self) }
        guard let parent = arguments.testStateDir else { return words }
        var given = ["serve", "--test-state-dir", parent.string]
        let named: [(String, FilePath?)] = [("--sockname", arguments.sockname), ("--logfile", arguments.logfile),
                                            ("--pidfile", arguments.pidfile), ("--statefile", arguments.statefile)]
        for (option, path) in named { if let path { given += [option, path.string] } }
        if let level = arguments.logLevel { given += ["--log-level", level] }
        return given
    }
}
