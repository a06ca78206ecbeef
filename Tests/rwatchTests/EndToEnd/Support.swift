import Glibc
import Testing
import TestSupport

/// A fresh temporary directory for one end-to-end test.
typealias Scratch = TemporaryDirectory

extension TemporaryDirectory {
    init() { self.init(prefix: "rwatch-e2e") }
}

/// The rwatch binary SwiftPM built next to this test bundle, run as a child
/// with its output in files.
final class RWatch: @unchecked Sendable {
    // Safety: `status` is only touched by the test's own thread.
    let pid: pid_t
    let stdoutPath: String
    let stderrPath: String
    private var status: Int32?

    /// The build directory holding `rwatch`, `libRecipeKit.so` and `Modules`.
    static let binDirectory: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = String(decoding: buffer[0..<max(count, 0)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var dir = String(exe[..<exe.lastIndex(of: "/")!])
        // The test runner may live inside an .xctest bundle directory.
        while !dir.isEmpty, access(dir + "/rwatch", X_OK) != 0 {
            dir = String(dir[..<(dir.lastIndex(of: "/") ?? dir.startIndex)])
        }
        return dir
    }()

    /// One private recipe cache beside the build, so each recipe compiles
    /// once (and a later test run of the same build finds it warm, as the
    /// cache is keyed by content): nothing is left in /tmp.
    static let cacheHome: String = {
        let path = binDirectory + "/rwatch-e2e-cache"
        mkdir(path, 0o700)
        return path
    }()

    /// Starts `rwatch arguments…` in `directory` with `environment` added
    /// and the `unsetting` variables removed. With `terminal`, stderr is
    /// that device (a pty's secondary) instead of a file.
    /// `wrapper`, when given, runs first and ends by exec-ing what follows
    /// it (rwatch and `arguments`), as `unshare … sh -c '…; exec "$@"'` does.
    ///
    /// With `session`, rwatch leads a new session on that pseudo-terminal,
    /// its controlling terminal and stdin, stdout and stderr (then its
    /// output is read from the session, not from files). With `underShell`
    /// too, a non-interactive `sh` leads the session and runs rwatch as its
    /// child, in its process group (`pid` is then the shell's).
    /// With `stdin`, that descriptor is rwatch's standard input (else it
    /// inherits the test runner's).
    convenience init(_ arguments: [String], in directory: String, environment: [String: String] = [:], unsetting: [String] = [], terminal: String? = nil, session: TerminalSession? = nil, underShell: Bool = false, wrapper: [String] = [], stdin: Int32? = nil, scratch: Scratch) {
        self.init(bytes: arguments.map { Array($0.utf8) }, in: directory, environment: environment, unsetting: unsetting, terminal: terminal, session: session, underShell: underShell, wrapper: wrapper, stdin: stdin, scratch: scratch)
    }

    /// `init(_:in:…)` with arguments and extra variables given as bytes
    /// (they need not be UTF-8).
    init(bytes arguments: [[UInt8]], in directory: String, environment: [String: String] = [:], environmentBytes: [String: [UInt8]] = [:],
         unsetting: [String] = [], terminal: String? = nil, session: TerminalSession? = nil, underShell: Bool = false, wrapper: [String] = [], stdin: Int32? = nil, scratch: Scratch) {
        stdoutPath = scratch.file(".rwatch-stdout-\(UInt32.random(in: 0...UInt32.max))")
        stderrPath = terminal ?? stdoutPath.replacingStdout()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if let session {
            session.prepare(&actions, flags: &flags)
        } else {
            if let stdin { posix_spawn_file_actions_adddup2(&actions, stdin, 0) }
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            if let terminal {
                posix_spawn_file_actions_addopen(&actions, 2, terminal, O_RDWR | O_NOCTTY, 0)
            } else {
                posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            }
        }
        // No service unless a test starts one: a `rwatch serve` the person
        // running the tests has on the default socket is not theirs.
        var env: [String: String] = ["XDG_CACHE_HOME": Self.cacheHome, "NO_COLOR": "1", "WATCHMAN_SOCK": "/nonexistent/rwatch-tests/sock"]
        for name in ["PATH", "HOME", "TMPDIR", "LANG"] {
            if let value = getenv(name) { env[name] = String(cString: value) }
        }
        env.merge(environment) { $1 }
        for name in unsetting { env[name] = nil }
        // sh changes directory, then becomes rwatch (same pid), or under
        // `underShell` runs it as a child and stays.
        let script = underShell ? "cd \"$0\" && \"$@\"; exit $?" : "cd \"$0\" && exec \"$@\""
        let command = (["/bin/sh", "-c", script, directory] + wrapper + [Self.binDirectory + "/rwatch"]).map { Array($0.utf8) } + arguments
        var entries = env.map { Array("\($0.key)=\($0.value)".utf8) }
        for (name, value) in environmentBytes { entries.append(Array(name.utf8) + [UInt8(ascii: "=")] + value) }
        let cString: ([UInt8]) -> UnsafeMutablePointer<CChar>? = { bytes in
            (bytes + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { strdup($0.baseAddress!) } }
        }
        let argv = command.map(cString) + [nil]
        let envp = entries.map(cString) + [nil]
        var child: pid_t = 0
        let result = withCleanSignals(flags: flags) { attributes in
            withoutSpawns { posix_spawn(&child, argv[0]!, &actions, &attributes, argv, envp) }
        }
        argv.forEach { free($0) }
        envp.forEach { free($0) }
        posix_spawn_file_actions_destroy(&actions)
        precondition(result == 0, "cannot start rwatch")
        pid = child
    }

    var stdout: String { Scratch.read(stdoutPath) }
    var stderr: String { Scratch.read(stderrPath) }
    /// What rwatch wrote, byte for byte (names need not be UTF-8).
    var stdoutBytes: [UInt8] { Scratch.readBytes(stdoutPath) }
    var stderrBytes: [UInt8] { Scratch.readBytes(stderrPath) }

    /// The exit status once rwatch has exited (128+N for signal N), else nil.
    func exitStatus() -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
        status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        return status
    }

    /// Waits (up to a deadline) for rwatch to exit and returns its status.
    func waitForExit(_ timeout: Duration = .seconds(60)) -> Int32? {
        _ = eventually(timeout) { exitStatus() != nil }
        return exitStatus()
    }

    /// Ctrl-C, then waits for the exit; SIGKILL if it does not come.
    @discardableResult
    func interrupt() -> Int32? {
        kill(pid, SIGINT)
        if let status = waitForExit(.seconds(20)) { return status }
        kill(pid, SIGKILL)
        return waitForExit()
    }

    /// Runs rwatch to completion.
    static func run(_ arguments: [String], in directory: String, environment: [String: String] = [:], scratch: Scratch) -> (status: Int32?, stdout: String, stderr: String) {
        let process = RWatch(arguments, in: directory, environment: environment, scratch: scratch)
        let status = process.waitForExit()
        if status == nil { process.interrupt() }
        return (status, process.stdout, process.stderr)
    }
}

extension String {
    fileprivate func replacingStdout() -> String {
        var copy = self
        if let range = copy.firstRange(of: "stdout") { copy.replaceSubrange(range, with: "stderr") }
        return copy
    }
}

/// Kills the service whose pid `pidFile` holds (one a `watchman` command
/// started on demand, which outlives it) and waits until it is gone; no
/// file, nothing to do.
func killService(pidFile: String) {
    guard let pid = pid_t(Scratch.read(pidFile).filter(\.isNumber)), pid > 0 else { return }
    kill(pid, SIGKILL)
    #expect(eventually { !isAlive(pid) }, "the service (pid \(pid)) did not end")
}

/// True while a process with this pid exists (and is not a zombie of ours).
func isAlive(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    // Reaped between the two looks: /proc has nothing left to read.
    let stat = Scratch.read("/proc/\(pid)/stat")
    guard let close = stat.lastIndex(of: ")") else { return false }
    return stat[stat.index(close, offsetBy: 2)] != "Z"
}
