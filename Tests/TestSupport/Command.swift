#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion for a test (git, say), with exactly the
/// environment given: nothing of the test process's own leaks in but
/// `PATH`, so a test cannot be swayed by the machine's git configuration.
public enum Command {
    /// What a finished command gave.
    public struct Result: Sendable {
        /// The exit status (128+N when killed by signal N).
        public var status: Int32
        /// Standard output.
        public var output: String
        /// Standard error.
        public var errors: String
    }

    /// Runs `arguments` (looked up in `PATH`) with `input` on its stdin.
    public static func run(_ arguments: [String], environment: [String: String] = [:], input: String = "") -> Result {
        let scratch = TemporaryDirectory(prefix: "rwatch-command")
        defer { scratch.remove() }
        // Written as bytes: the input may hold NULs (`git … -z --stdin`).
        let inputFD = open(scratch.file("input"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        var bytes = Array(input.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(inputFD, $0.baseAddress! + offset, $0.count - offset) }
            guard written > 0 else { break }
            offset += written
        }
        close(inputFD)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, scratch.file("input"), O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, scratch.file("output"), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, scratch.file("errors"), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var env = environment
        if env["PATH"] == nil, let path = getenv("PATH") { env["PATH"] = String(cString: path) }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var child: pid_t = 0
        // Clean signals: a shell's `wait` never returns if SIGCHLD stays blocked.
        let spawned = withCleanSignals(flags: 0) { attributes in
            withoutSpawns { posix_spawnp(&child, argv[0]!, &actions, &attributes, argv, envp) }
        }
        argv.forEach { free($0) }
        envp.forEach { free($0) }
        posix_spawn_file_actions_destroy(&actions)
        guard spawned == 0 else { return Result(status: 127, output: "", errors: "cannot run \(arguments[0]): error \(spawned)") }
        var raw: Int32 = 0
        while waitpid(child, &raw, 0) < 0, errno == EINTR {}
        let status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        return Result(status: status, output: scratch.read("output"), errors: scratch.read("errors"))
    }
}

/// Runs `body` with spawn attributes that start the child with no signal
/// blocked and each at its default (the test runner may block or ignore
/// some), and `flags` besides (with `POSIX_SPAWN_SETPGROUP`: a group of its own).
public func withCleanSignals<Result>(flags: Int32, _ body: (inout posix_spawnattr_t) -> Result) -> Result {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    var all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(flags | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    return body(&attributes)
}
