import Glibc
import Signals
import Synchronization
import SystemPackage
import WatchSources
import WatchmanProtocol

/// `rwatch serve`: a watchman-compatible service on a Unix socket.
///
/// One thread (the caller of `serve`) runs the socket loop: it accepts,
/// reads, cuts PDUs and writes, and never runs a handler. Each request's
/// handler runs on a worker thread, so a handler that blocks holds up only
/// its own client. See ARCHITECTURE.md, "The service".
public final class WatchmanServer: Sendable {
    public let configuration: ServiceConfiguration
    /// Every command and capability, fixed before the first client.
    public let commands: CommandTable
    /// The log file and the clients listening with `log-level`.
    public let log: ServiceLog
    /// The service's own process id (`get-pid`).
    public let pid: Int32 = getpid()

    private let components: [any ServiceComponent]
    private let wakePipe: WakePipe
    private let stopping = Atomic<Bool>(false)
    /// Clients whose handler finished, for the loop to go on with.
    private let finished = Locked<[Int]>([])
    private let nextClientID = Atomic<Int>(1)
    /// How many times the loop has woken from `poll`: what tests read to
    /// see that an idle service does not spin.
    package var loopRounds: Int { rounds.load(ordering: .relaxed) }
    let rounds = Atomic<Int>(0)
    /// How many requests the loop answered itself (`answerOnLoop`), for tests.
    package var answeredOnLoop: Int { loopAnswers.load(ordering: .relaxed) }
    private let loopAnswers = Atomic<Int>(0)

    /// How the loop accepts a connection (`accept(2)`, unless a test
    /// stands in for a process out of descriptors).
    let accept: @Sendable (Int32) -> AcceptOutcome

    /// A server for `configuration` with `components`' commands (by default
    /// every part of `rwatch serve`). Opens the log file; listens only in `serve`.
    public convenience init(configuration: ServiceConfiguration,
                            components: [any ServiceComponent] = WatchmanServer.standardComponents()) throws(ServeError) {
        try self.init(configuration: configuration, components: components, accept: UnixSocket.accept)
    }

    /// `init(configuration:components:)` accepting connections with `accept`.
    package init(configuration: ServiceConfiguration, components: [any ServiceComponent],
                 accept: @escaping @Sendable (Int32) -> AcceptOutcome) throws(ServeError) {
        self.accept = accept
        self.configuration = configuration
        self.components = components
        var table = CommandTable()
        table.addCapabilities(["bser-v2"])
        for component in components { component.register(in: &table) }
        commands = table
        var logFD = STDERR_FILENO
        if let logfile = configuration.logfile {
            logFD = logfile.withPlatformString { Glibc.open($0, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600) }
            guard logFD >= 0 else { throw .system("cannot open the log file \(Quoted.escaped(logfile))", errno) }
        }
        log = ServiceLog(fd: logFD, fileLevel: configuration.logLevel)
        do {
            wakePipe = try WakePipe()
        } catch {
            throw ServeError("cannot make a pipe: \(error)")
        }
    }

    /// What `serve` ended with.
    public enum Outcome: Sendable, Equatable {
        /// Served until asked to stop (`shutdown-server`, `requestShutdown`).
        case stopped
        /// Another service already answers on the socket (its pid, if told).
        case alreadyRunning(pid: Int32?)
    }

    /// Listens on the configured socket and serves until asked to stop;
    /// then lets every client go (they read end of file), removes the
    /// socket and pid files and tells the components. `ready` runs once
    /// the socket accepts connections.
    public func serve(ready: @Sendable () -> Void = {}) throws(ServeError) -> Outcome {
        let privately = ServiceConfiguration.isDefault(configuration.sockname)
        let listener: Int32
        let opened: UnixSocket.Opened
        do {
            opened = try UnixSocket.open(configuration.sockname, privateDirectory: privately,
                                         access: configuration.socketAccess) { () throws(ServeError) in
                if let pidfile = configuration.pidfile { try writePidfile(pidfile) }
            }
        } catch {
            // The log file too (stderr is the caller's to report on).
            if configuration.logfile != nil { log.log(.error, "rwatch serve: \(error.description)") }
            throw error
        }
        switch opened {
        case .alreadyRunning(let pid): return .alreadyRunning(pid: pid)
        case .listening(let fd): listener = fd
        }
        log.log(.error, "rwatch serve \(configuration.buildinfo): listening on \(Quoted.escaped(configuration.sockname)), pid \(pid)")
        for component in components { component.serverStarted(self) }
        ready()
        var loop = ServerLoop(server: self, listener: listener, wake: wakePipe)
        loop.run()
        _ = configuration.sockname.withPlatformString { unlink($0) }
        close(listener)
        if let pidfile = configuration.pidfile { _ = pidfile.withPlatformString { unlink($0) } }
        log.log(.error, "rwatch serve: stopped")
        for component in components { component.serverStopping(self) }
        return .stopped
    }

    /// Asks the service to stop: from a handler (`shutdown-server`) or a
    /// signal. Returns at once; `serve` returns once clients were let go.
    public func requestShutdown() {
        stopping.store(true, ordering: .releasing)
        wakePipe.wake()
    }

    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// A new client's identity, unique in this run.
    func makeClient(peer: PeerCredentials, socket: Int32) -> ServiceClient {
        let id = nextClientID.wrappingAdd(1, ordering: .relaxed).oldValue
        let wake = wakePipe
        return ServiceClient(id: id, peer: peer, socket: socket, queueLimit: configuration.clientQueueLimit, wake: { wake.wake() })
    }

    /// Runs `request`'s handler for `client` on a worker, writes or queues
    /// the reply in `encoding`, then tells the loop (once: it reads the
    /// client's next request, and writes what waits).
    func dispatch(_ request: CommandRequest, encoding: WireEncoding, client: ServiceClient) {
        client.noteEncoding(encoding)
        WorkerPool.shared.run { [self] in
            let context = CommandContext(client: client, server: self)
            let reply = answer(request, context: context)!  // never nil off the loop
            client.reply(encoding.encode(reply), encoding: encoding)
            for followUp in context.takeFollowUps() { followUp() }
            finished.withLock { $0.append(client.id) }
            wakePipe.wake()
        }
    }

    /// On the socket loop: answers `request` at once if its handler can
    /// without waiting (`answersOnLoop`), writing or queueing the reply;
    /// false when it cannot (the loop then `dispatch`es it).
    func answerOnLoop(_ request: CommandRequest, encoding: WireEncoding, client: ServiceClient) -> Bool {
        guard commands.answersOnLoop(request.name) else { return false }
        let context = CommandContext(client: client, server: self, onLoop: true)
        guard let reply = answer(request, context: context) else { return false }
        loopAnswers.add(1, ordering: .relaxed)
        client.reply(encoding.encode(reply), encoding: encoding)
        for followUp in context.takeFollowUps() { followUp() }
        return true
    }

    /// The reply to `request`: the handler's object with `version` first,
    /// or an error reply; nil when the handler would wait on the loop.
    func answer(_ request: CommandRequest, context: CommandContext) -> WatchmanValue? {
        guard let handler = commands.handler(for: request.name) else {
            return CommandError.validation("unknown command \(request.name)").reply(version: configuration.version)
        }
        if commands.isOwnerOnly(request.name), !context.client.isOwner {
            return CommandError.notOwner("run '\(request.name)'").reply(version: configuration.version)
        }
        do {
            let reply = try handler(request, context)
            guard case .object(let pairs) = reply else {
                return CommandError("internal error: \(request.name) answered no object").reply(version: configuration.version)
            }
            return reply["version"] == nil ? .object([("version", .string(configuration.version))] + pairs) : reply
        } catch let error as CommandError {
            return error.reply(version: configuration.version)
        } catch is WouldWait {
            // (`nil` alone would be `WatchmanValue.null`.)
            if context.onLoop { return Optional<WatchmanValue>.none }
            return CommandError("internal error: \(request.name) would wait").reply(version: configuration.version)
        } catch {
            return CommandError("\(error)").reply(version: configuration.version)
        }
    }

    /// The clients whose handler finished since the last call.
    func takeFinished() -> [Int] {
        finished.withLock { list in
            defer { list.removeAll(keepingCapacity: true) }
            return list
        }
    }

    private func writePidfile(_ path: FilePath) throws(ServeError) {
        let temporary = FilePath(bytes: path.bytes + Array(".\(pid).tmp".utf8))
        let fd = temporary.withPlatformString { Glibc.open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw .system("cannot write the pid file \(Quoted.escaped(path))", errno) }
        let text = Array("\(pid)\n".utf8)
        let written = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let renamed = temporary.withPlatformString { from in path.withPlatformString { rename(from, $0) } }
        guard written == text.count, renamed == 0 else {
            _ = temporary.withPlatformString { unlink($0) }
            throw .system("cannot write the pid file \(Quoted.escaped(path))", errno)
        }
    }
}
