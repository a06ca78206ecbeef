#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// The one place that starts a process (`posix_spawn`, or `clone3` into a
/// run's cgroup: `ControlGroup.spawnInside`): as the leader of a new
/// process group, or in rwatch's own (`ProcessOptions.grouping`), with
/// standard input, output and error and any handed-over descriptors as the
/// options say, and nothing else of rwatch's open.
package enum ProcessLauncher {
    /// A started child: its pid (= process group id for a new group) and
    /// the read ends of its output pipes (`-1` when output is not captured).
    struct Child {
        var pid: pid_t
        var stdout: Int32
        var stderr: Int32
        /// Whether it was born in the `controlGroup` asked for.
        var inControlGroup = false
    }

    /// The argv that `options` asks for: the arguments, or a shell running
    /// them (the words joined by spaces, bytes as they are), with the
    /// script's positional parameters after its `$0`.
    static func argv(_ arguments: [CommandWord], _ options: ProcessOptions) -> [CommandWord] {
        guard let shell = options.shell else { return arguments }
        let script = arguments.map(\.bytes).joined(separator: [UInt8(ascii: " ")])
        let parameters = options.shellParameters.isEmpty ? [] : [CommandWord(shell)] + options.shellParameters
        return [CommandWord(shell), "-c", CommandWord(bytes: Array(script))] + parameters
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

    /// Starts a child no `ProcessGroup` supervises and returns its pid: one
    /// the caller waits for itself, or with `.newSession` one that
    /// outlives rwatch (the service a `watchman` command starts).
    package static func start(_ arguments: [CommandWord], options: ProcessOptions) throws(ProcessError) -> pid_t {
        try spawn(arguments, options: options).pid
    }

    /// Spawns the command. Throws a `ProcessError` naming it when it cannot start.
    /// With `withTerminal`, stdin stays rwatch's terminal and the command's
    /// group becomes the foreground group before its exec, through the exec
    /// shim (the caller has reserved the terminal:
    /// `ControllingTerminal.reserve()`).
    /// With `controlGroup`, the child is born in that cgroup (when rwatch
    /// can enter it: `Child.inControlGroup`).
    static func spawn(_ arguments: [CommandWord], options: ProcessOptions, withTerminal: Bool = false,
                      controlGroup: ControlGroup? = nil) throws(ProcessError) -> Child {
        let argv = argv(arguments, options)
        let command = try validate(argv, options)
        let options = try SocketHandOver.lay(options, command: command)
        var environment = environment(adding: options.environment, bytes: options.environmentBytes)
        if let directory = options.workingDirectoryPath { try checkDirectory(directory, command: command) }
        let searchPath = environment.last { $0.starts(with: "PATH=".utf8) }.map { String(decoding: $0.dropFirst(5), as: UTF8.self) }
        var executable = try ExecutableLookup.resolve(argv[0].bytes, searchPath: searchPath, workingDirectory: options.workingDirectoryPath?.bytes)
        if !options.listenSockets.isEmpty || withTerminal {
            // LISTEN_PID must be the command's own pid, which no spawn
            // attribute can set, and the terminal is taken after the spawn
            // has returned (a stop before the exec is then a watched child's
            // stop): the exec shim does both on its way to exec.
            environment.append(ExecShim.variable(program: executable, listenPID: !options.listenSockets.isEmpty,
                                                 takeTerminal: withTerminal))
            executable = ExecShim.path
        }
        let streams = try ChildStreams(options, command: command)
        defer { streams.closeParentCopies() }
        var setUp = SpawnSetUp(options, streams: streams, withTerminal: withTerminal)
        if let directory = options.workingDirectoryPath, !setUp.changeDirectory(to: directory) {
            streams.closeReadEnds()
            throw ProcessError(command: command, reason: .badWorkingDirectory(directory.string), detail: "this C library cannot set a child's directory")
        }
        var pid: pid_t = 0
        var placed = false
        let path = (executable + [0]).map { CChar(bitPattern: $0) }
        let result = CStrings.with(argv.map(\.bytes)) { argvPointers in
            CStrings.with(environment) { envPointers in
                SpawnFence.hold {
                    if let controlGroup {
                        // Born in the cgroup (clone3), or rwatch moves in for the spawn.
                        if let inside = controlGroup.spawnInside(&pid, path: path, setUp, argv: argvPointers, environment: envPointers) {
                            placed = true
                            return inside
                        }
                        let spawn = { setUp.withPosixSpawn { posix_spawn(&pid, path, $0, $1, argvPointers, envPointers) } }
                        if let inside = controlGroup.spawning(spawn) {
                            placed = true
                            return inside
                        }
                    }
                    return setUp.withPosixSpawn { posix_spawn(&pid, path, $0, $1, argvPointers, envPointers) }
                }
            }
        }
        guard result == 0 else {
            streams.closeReadEnds()
            throw spawnError(result, command: command)
        }
        return Child(pid: pid, stdout: streams.stdout.read, stderr: streams.stderr.read, inControlGroup: placed)
    }

    /// The command's name for messages, once its words and variables are
    /// fit for C strings (a NUL byte would cut them short).
    private static func validate(_ argv: [CommandWord], _ options: ProcessOptions) throws(ProcessError) -> String {
        guard let program = argv.first else { throw ProcessError(command: "", reason: .emptyCommand) }
        let command = program.text
        if argv.contains(where: { $0.bytes.contains(0) }) {
            throw ProcessError(command: command, reason: .spawnFailed(EINVAL), detail: "an argument contains a NUL byte")
        }
        let badName: (String) -> Bool = { $0.isEmpty || $0.contains("=") || $0.utf8.contains(0) }
        if options.environment.contains(where: { badName($0.key) || $0.value.utf8.contains(0) })
            || options.environmentBytes.contains(where: { badName($0.key) || $0.value.contains(0) }) {
            throw ProcessError(command: command, reason: .spawnFailed(EINVAL), detail: "bad environment variable (empty name, '=' in the name, or a NUL byte)")
        }
        return command
    }

    private static func checkDirectory(_ directory: FilePath, command: String) throws(ProcessError) {
        var info = stat()
        var code: Int32 = 0
        if directory.withPlatformString({ stat($0, &info) }) != 0 {
            code = errno
        } else if info.st_mode & S_IFMT != S_IFDIR {
            code = ENOTDIR
        } else if directory.withPlatformString({ access($0, X_OK) }) != 0 {
            code = errno
        }
        guard code != 0 else { return }
        throw ProcessError(command: command, reason: .badWorkingDirectory(directory.string), detail: Errno(rawValue: code).description)
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
