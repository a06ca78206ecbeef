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
    /// appended to the log file. Not `ProcessLauncher`: its children are
    /// rwatch's to supervise and stop, and this one must outlive rwatch.
    /// The service writes a byte on descriptor 3 (`--ready-fd`) once it
    /// listens: returned is the pipe's other end, to wait on instead of
    /// polling the socket.
    private func spawn(in directory: FilePath) throws(WatchmanFailure) -> (pid: pid_t, ready: Int32) {
        var pipeEnds: [Int32] = [-1, -1]
        let made = pipeEnds.withUnsafeMutableBufferPointer { CGlibcShims_pipe2($0.baseAddress!, O_CLOEXEC) }
        guard made == 0 else { throw .cannotStart("cannot make a pipe: \(Errno(rawValue: errno))") }
        defer { close(pipeEnds[1]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        logfile.withPlatformString { _ = posix_spawn_file_actions_addopen(&actions, 1, $0, O_WRONLY | O_CREAT | O_APPEND, 0o600) }
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        if CGlibcShims_has_addchdir() != 0 {
            directory.withPlatformString { _ = CGlibcShims_posix_spawn_file_actions_addchdir_np(&actions, $0) }
        }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 3)
        if CGlibcShims_has_addclosefrom() != 0 { _ = CGlibcShims_posix_spawn_file_actions_addclosefrom_np(&actions, 4) }
        var pid: pid_t = 0
        let argv = [Array("rwatch".utf8)] + serveArguments + [Array("--ready-fd".utf8), Array("3".utf8)]
        let result = Self.withCleanSignals(flags: Self.spawnSetsid) { attributes in
            CStrings.with(argv) { arguments in posix_spawn(&pid, "/proc/self/exe", &actions, attributes, arguments, environ) }
        }
        guard result == 0 else {
            close(pipeEnds[0])
            throw .cannotStart("cannot start rwatch serve: \(Errno(rawValue: result))")
        }
        return (pid, pipeEnds[0])
    }

    /// Runs `body` with spawn attributes that start a child with no signal
    /// blocked and every one at its default, plus `flags`.
    static func withCleanSignals<Result>(flags: Int32 = 0, _ body: (UnsafePointer<posix_spawnattr_t>) -> Result) -> Result {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        // glibc's own signals too: sigfillset leaves them out, and posix_spawn
        // would start the child with them ignored.
        var every = ProcessLauncher.everySignal()
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &every)
        posix_spawnattr_setflags(&attributes, Int16(flags | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return body(&attributes)
    }

    /// glibc's `POSIX_SPAWN_SETSID` (since 2.26), which its header hides
    /// without `_GNU_SOURCE`: the child calls setsid(2) before its exec.
    private static let spawnSetsid: Int32 = 0x80

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
