#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Starts a command with `posix_spawn` as the leader of a new process group,
/// standard input from `/dev/null` (a background group cannot read the
/// terminal), and standard output and error on pipes when captured.
package enum ProcessLauncher {
    /// Every signal, for `posix_spawnattr_setsigdefault`: a child starts
    /// with each at its default. sigfillset leaves out glibc's internal
    /// signals 32 and 33, which posix_spawn then sets to SIG_IGN in the
    /// child, and SIG_IGN survives exec; their bits are set directly
    /// (sigaddset refuses them). Bit n-1 of the first word is signal n.
    package static func everySignal() -> sigset_t {
        var signals = sigset_t()
        sigfillset(&signals)
        signals.__val.0 |= (1 << 31) | (1 << 32)
        return signals
    }

    /// A started child: its pid (= process group id) and the read ends of its
    /// output pipes (`-1` when output is not captured).
    struct Child {
        var pid: pid_t
        var stdout: Int32
        var stderr: Int32
    }

    /// The argv that `options` asks for: the arguments, or a shell running
    /// them (the words joined by spaces, bytes as they are).
    static func argv(_ arguments: [CommandWord], _ options: ProcessOptions) -> [CommandWord] {
        guard let shell = options.shell else { return arguments }
        let script = arguments.map(\.bytes).joined(separator: [UInt8(ascii: " ")])
        return [CommandWord(shell), "-c", CommandWord(bytes: Array(script))]
    }

    /// The inherited environment with `text`, then `bytes`, laid over it,
    /// as `NAME=value` entries. Kept as bytes throughout: an inherited
    /// value, or a path in `bytes`, need not be UTF-8.
    static func environment(adding text: [String: String], bytes: [String: [UInt8]] = [:]) -> [[UInt8]] {
        var additions = text.mapValues { Array($0.utf8) }
        additions.merge(bytes) { $1 }
        let names = Set(additions.keys.map { Array($0.utf8) })
        var merged: [[UInt8]] = []
        var index = 0
        while let entry = environ[index] {
            index += 1
            let bytes = UnsafeRawBufferPointer(start: entry, count: strlen(entry))
            if names.contains(Array(bytes.prefix { $0 != UInt8(ascii: "=") })) { continue }
            merged.append(Array(bytes))
        }
        for (name, value) in additions.sorted(by: { $0.key < $1.key }) {
            merged.append(Array(name.utf8) + [UInt8(ascii: "=")] + value)
        }
        return merged
    }

    /// Spawns the command. Throws a `ProcessError` naming it when it cannot start.
    /// With `withTerminal`, stdin stays rwatch's terminal and the child
    /// makes its group the foreground group before exec (the caller has
    /// reserved the terminal: `ControllingTerminal.reserve()`).
    static func spawn(_ arguments: [CommandWord], options: ProcessOptions, withTerminal: Bool = false) throws(ProcessError) -> Child {
        let argv = argv(arguments, options)
        guard let program = argv.first else { throw ProcessError(command: "", reason: .emptyCommand) }
        let command = program.text
        // A C string ends at NUL: such an argument would reach the child cut short.
        if argv.contains(where: { $0.bytes.contains(0) }) {
            throw ProcessError(command: command, reason: .spawnFailed(EINVAL), detail: "an argument contains a NUL byte")
        }
        let badName: (String) -> Bool = { $0.isEmpty || $0.contains("=") || $0.utf8.contains(0) }
        if options.environment.contains(where: { badName($0.key) || $0.value.utf8.contains(0) })
            || options.environmentBytes.contains(where: { badName($0.key) || $0.value.contains(0) }) {
            throw ProcessError(command: command, reason: .spawnFailed(EINVAL), detail: "bad environment variable (empty name, '=' in the name, or a NUL byte)")
        }
        let environment = environment(adding: options.environment, bytes: options.environmentBytes)
        if let directory = options.workingDirectory { try checkDirectory(directory, command: command) }
        let searchPath = environment.last { $0.starts(with: "PATH=".utf8) }.map { String(decoding: $0.dropFirst(5), as: UTF8.self) }
        let executable = try ExecutableLookup.resolve(program.bytes, searchPath: searchPath, workingDirectory: options.workingDirectory)

        var out: (read: Int32, write: Int32) = (-1, -1)
        var err: (read: Int32, write: Int32) = (-1, -1)
        if options.captureOutput {
            do {
                out = try GNUFunctions.makePipe()
                err = try GNUFunctions.makePipe()
            } catch {
                for fd in [out.read, out.write] where fd >= 0 { close(fd) }
                throw ProcessError(command: command, reason: .spawnFailed(error.errno), detail: Errno(rawValue: error.errno).description)
            }
        }
        defer {
            if out.write >= 0 { close(out.write) }
            if err.write >= 0 { close(err.write) }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if withTerminal {
            if let addTcsetpgrp = GNUFunctions.addTcsetpgrp { _ = addTcsetpgrp(&actions, ControllingTerminal.fd) }
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if options.captureOutput {
            posix_spawn_file_actions_adddup2(&actions, out.write, 1)
            posix_spawn_file_actions_adddup2(&actions, err.write, 2)
        } else if StandardError.descriptor != 2 {
            // Under a supervising rwatch, 2 is its crash-report pipe: the
            // command gets the real standard error.
            posix_spawn_file_actions_adddup2(&actions, StandardError.descriptor, 2)
        }
        // Nothing but 0, 1 and 2 reaches the child, whoever forgot CLOEXEC.
        if let addClosefrom = GNUFunctions.addClosefrom { _ = addClosefrom(&actions, 3) }
        if let directory = options.workingDirectory {
            guard let addChdir = GNUFunctions.addChdir else {
                throw ProcessError(command: command, reason: .badWorkingDirectory(directory), detail: "this C library cannot set a child's directory")
            }
            _ = addChdir(&actions, directory)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Own process group (pgid = pid); every signal back to its default
        // (a supervisor ignores SIGTERM & co., and SIG_IGN survives exec);
        // nothing blocked.
        var everySignal = Self.everySignal()
        var noSignal = sigset_t()
        sigemptyset(&noSignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setsigmask(&attributes, &noSignal)

        let cArguments = argv.map { word in
            (word.bytes + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { strdup($0.baseAddress!) } }
        }
        let cEnvironment = environment.map { entry in
            (entry + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { strdup($0.baseAddress!) } }
        }
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let path = (executable + [0]).map { CChar(bitPattern: $0) }
        let result = (cArguments + [nil]).withUnsafeBufferPointer { argvPointer in
            (cEnvironment + [nil]).withUnsafeBufferPointer { envPointer in
                SpawnFence.hold { posix_spawn(&pid, path, &actions, &attributes, argvPointer.baseAddress!, envPointer.baseAddress!) }
            }
        }
        guard result == 0 else {
            for fd in [out.read, err.read] where fd >= 0 { close(fd) }
            throw spawnError(result, command: command)
        }
        return Child(pid: pid, stdout: out.read, stderr: err.read)
    }

    private static func checkDirectory(_ directory: String, command: String) throws(ProcessError) {
        var info = stat()
        var code: Int32 = 0
        if stat(directory, &info) != 0 {
            code = errno
        } else if info.st_mode & S_IFMT != S_IFDIR {
            code = ENOTDIR
        } else if access(directory, X_OK) != 0 {
            code = errno
        }
        guard code != 0 else { return }
        throw ProcessError(command: command, reason: .badWorkingDirectory(directory), detail: Errno(rawValue: code).description)
    }

    private static func spawnError(_ code: Int32, command: String) -> ProcessError {
        let detail = Errno(rawValue: code).description
        switch code {
        case ENOENT: return ProcessError(command: command, reason: .notFound, detail: detail)
        case EACCES, ENOEXEC, EISDIR, EPERM, ELIBBAD: return ProcessError(command: command, reason: .notExecutable, detail: detail)
        default: return ProcessError(command: command, reason: .spawnFailed(code), detail: detail)
        }
    }
}
