import Glibc

/// Blocking child processes for the compiler: run, wait, get the status or
/// the output. (Watched commands go through `ProcessSource` instead.)
enum Spawn {
    /// Runs `argv` with rwatch's stdout and stderr and returns its shell
    /// status (127 when it cannot start).
    static func status(_ argv: [String]) -> Int32 {
        guard let pid = start(argv, stdout: nil) else { return 127 }
        return wait(pid)
    }

    /// Runs `argv` and returns what it printed on stdout, or nil if it failed.
    static func output(_ argv: [String]) -> String? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        let pid = start(argv, stdout: fds[1])
        close(fds[1])
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        close(fds[0])
        guard let pid, wait(pid) == 0 else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func start(_ argv: [String], stdout: Int32?) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdout { posix_spawn_file_actions_adddup2(&actions, stdout, 1) }
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, argv[0], &actions, nil, cArgs, environ) == 0 else { return nil }
        return pid
    }

    private static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return 127 }
        }
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }
}
