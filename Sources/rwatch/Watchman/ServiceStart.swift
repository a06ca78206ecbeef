import CGlibcShims
import Glibc
import Service
import SystemPackage
import WatchSources

/// Starting `rwatch serve` on demand, as watchman's command line starts its
/// server: when nothing answers on the socket, a detached service is
/// started there and waited for, and the request goes to it.
///
/// Many clients finding no service at once start exactly one: the start is
/// serialised by an exclusive `flock` on `SOCK.lock` beside the socket, and
/// whoever takes the lock connects once more before starting anything. A
/// socket whose service died (connect: `ECONNREFUSED`) is removed under
/// that lock. The service's files sit beside its socket, named after it
/// (`SOCK.log`, `SOCK.state`, `SOCK.pid`), as watchman's `<USER>.log` and
/// `<USER>.state` sit beside its `<USER>` socket.
struct ServiceStart {
    var sockname: FilePath
    var logfile: FilePath
    var statefile: FilePath?
    var pidfile: FilePath
    var logLevel: String?
    /// Start the service here even when the global configuration names a
    /// site spawner (`--no-site-spawner`).
    var noSiteSpawner = false
    /// How long the started service has to answer.
    var timeout: Duration = .seconds(20)

    /// The start `arguments` ask for: the files they name, else the
    /// socket's neighbours.
    init(sockname: FilePath, arguments: WatchmanArguments) {
        func beside(_ suffix: String) -> FilePath {
            FilePath(bytes: sockname.bytes + Array(suffix.utf8))
        }
        self.sockname = sockname
        logfile = arguments.logfile ?? beside(".log")
        statefile = arguments.noSaveState ? nil : arguments.statefile ?? beside(".state")
        pidfile = arguments.pidfile ?? beside(".pid")
        logLevel = arguments.logLevel
        noSiteSpawner = arguments.noSiteSpawner
    }

    /// `rwatch serve`'s arguments for this start (after the program name).
    var serveArguments: [[UInt8]] {
        var words: [[UInt8]] = [Array("serve".utf8), Array("--sockname".utf8), sockname.bytes,
                                Array("--logfile".utf8), logfile.bytes, Array("--pidfile".utf8), pidfile.bytes]
        if let statefile { words += [Array("--statefile".utf8), statefile.bytes] }
        if let logLevel { words += [Array("--log-level".utf8), Array(logLevel.utf8)] }
        return words
    }

    /// The same start as watchman's options, for a site spawner, which
    /// runs the binary as `watchman --foreground OPTIONS…`.
    var watchmanArguments: [[UInt8]] {
        var words = [Array("--unix-listener-path=".utf8) + sockname.bytes, Array("--logfile=".utf8) + logfile.bytes,
                     Array("--pidfile=".utf8) + pidfile.bytes]
        words.append(statefile.map { Array("--statefile=".utf8) + $0.bytes } ?? Array("--no-save-state".utf8))
        if let logLevel { words.append(Array("--log-level=\(logLevel)".utf8)) }
        return words
    }

    /// Connects to the socket, starting the service first when nothing
    /// answers there (`start` nil: never; the failure is then thrown).
    static func connect(_ sockname: FilePath, start: ServiceStart?) throws(WatchmanFailure) -> ServiceConnection {
        switch ServiceConnection.open(sockname) {
        case .success(let connection): return connection
        case .failure(.noService(let code)):
            guard let start else { throw .unreachable(sockname, code) }
            return try start.startThenConnect()
        case .failure(.failed(let code)): throw .unreachable(sockname, code)
        case .failure(.foreignPeer): throw .foreign(sockname)
        }
    }

    /// Under the start lock: connects if someone started the service
    /// meanwhile, else removes a stale socket, starts the service and
    /// waits for it to answer.
    private func startThenConnect() throws(WatchmanFailure) -> ServiceConnection {
        let directory = sockname.removingLastComponent()
        makeDirectories(directory)
        let lockPath = FilePath(bytes: sockname.bytes + Array(".lock".utf8))
        let lock = lockPath.withPlatformString { open($0, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        guard lock >= 0 else { throw .cannotStart("cannot open \(Quoted.escaped(lockPath)): \(Errno(rawValue: errno))") }
        defer { close(lock) }  // releases the lock
        while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        switch ServiceConnection.open(sockname) {
        case .success(let connection): return connection
        case .failure(.noService(ECONNREFUSED)): _ = sockname.withPlatformString { unlink($0) }
        case .failure(.noService): break
        case .failure(.failed(let code)): throw .unreachable(sockname, code)
        case .failure(.foreignPeer): throw .foreign(sockname)
        }
        // A site spawner (`spawn_watchman_service` in the global
        // configuration, read only now that a start is due) is waited for;
        // the service it starts is not ours to watch.
        let settings: GlobalSettings
        do { settings = try GlobalSettings.read(environment: ServiceConfiguration.processEnvironment) } catch {
            throw .cannotStart(error.description)
        }
        var child: pid_t? = nil
        let deadline = ContinuousClock.now + timeout
        if let siteSpawner = noSiteSpawner ? nil : settings.siteSpawner {
            try runSiteSpawner(siteSpawner)
        } else {
            let started = try spawn(in: directory)
            child = started.pid
            Self.waitForReady(started.ready, until: deadline)
            close(started.ready)
        }
        while true {
            if case .success(let connection) = ServiceConnection.open(sockname) { return connection }
            var status: Int32 = 0
            if let child, waitpid(child, &status, WNOHANG) == child {
                throw .cannotStart("rwatch serve \(Self.ending(status)) before answering: \(lastLogLine())")
            }
            guard ContinuousClock.now < deadline else {
                throw .cannotStart("the service did not answer on \(Quoted.escaped(sockname)) within \(timeout); see \(Quoted.escaped(logfile))")
            }
            usleep(5_000)  // a site spawner's service tells no one when it listens
        }
    }

    /// Waits until the service we started says it listens (a byte on its
    /// readiness pipe), or ends (end of file: it exited, or found another
    /// service answering), or the deadline passes.
    private static func waitForReady(_ fd: Int32, until deadline: ContinuousClock.Instant) {
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            let ready = poll(&entry, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return }
            var byte: UInt8 = 0
            _ = read(fd, &byte, 1)
            return
        }
    }

    /// Starts this binary as `rwatch serve` in a session of its own (so no
    /// terminal's signals reach it and it outlives this process), in
    /// `directory`, with stdin from /dev/null and stdout and stderr
    /// appended to the log file: through `ProcessLauncher.start`, as every
    /// child starts, but no `ProcessGroup` of rwatch's owns it. The service
    /// writes a byte on descriptor 3 (`--ready-fd`) once it listens:
    /// returned is the pipe's other end, to wait on instead of polling the
    /// socket.
    private func spawn(in directory: FilePath) throws(WatchmanFailure) -> (pid: pid_t, ready: Int32) {
        var pipeEnds: [Int32] = [-1, -1]
        let made = pipeEnds.withUnsafeMutableBufferPointer { CGlibcShims_pipe2($0.baseAddress!, O_CLOEXEC) }
        guard made == 0 else { throw .cannotStart("cannot make a pipe: \(Errno(rawValue: errno))") }
        defer { close(pipeEnds[1]) }
        let log = logfile.withPlatformString { open($0, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600) }
        guard log >= 0 else {
            close(pipeEnds[0])
            throw .cannotStart("cannot open the log file \(Quoted.escaped(logfile)): \(Errno(rawValue: errno))")
        }
        defer { close(log) }
        var options = ProcessOptions(captureOutput: false)
        options.grouping = .newSession
        options.workingDirectoryPath = directory
        options.descriptors = [1: log, 2: log, 3: pipeEnds[1]]
        let words = [CommandWord(bytes: Self.executable)] + (serveArguments + [Array("--ready-fd".utf8), Array("3".utf8)]).map(CommandWord.init(bytes:))
        do {
            return (try ProcessLauncher.start(words, options: options), pipeEnds[0])
        } catch {
            close(pipeEnds[0])
            throw .cannotStart("cannot start rwatch serve: \(error)")
        }
    }

    /// This binary's path, so that the service's command line names it
    /// (`ps`); `/proc/self/exe` when it is gone (replaced by an upgrade).
    private static var executable: [UInt8] {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = count > 0 ? buffer.prefix(count).map { UInt8(bitPattern: $0) } : []
        return path.isEmpty || path.last == UInt8(ascii: ")") ? Array("/proc/self/exe".utf8) : path
    }

    /// Makes `directory` and any missing parent, each 0700 (the service
    /// then checks them as it always does).
    private func makeDirectories(_ directory: FilePath) {
        guard !directory.isEmpty, directory.withPlatformString({ mkdir($0, 0o700) }) != 0, errno == ENOENT else { return }
        makeDirectories(directory.removingLastComponent())
        _ = directory.withPlatformString { mkdir($0, 0o700) }
    }
}

/// Why the watchman command could not get an answer: watchman's messages.
enum WatchmanFailure: Error, CustomStringConvertible {
    /// Nothing answers on the socket (and no service was to be started).
    case unreachable(FilePath, Int32)
    /// What listens there is another user's.
    case foreign(FilePath)
    /// The service could not be started, or did not answer.
    case cannotStart(String)
    /// The connection ended or failed before the answer.
    case connection(String)

    var description: String {
        switch self {
        case .unreachable(let path, let code):
            "unable to talk to your watchman on \(path.string)! (\(Errno(rawValue: code)))"
        case .foreign(let path): "\(Quoted.escaped(path)) is another user's socket: refusing to talk to it"
        case .cannotStart(let message): message
        case .connection(let message): message
        }
    }
}
