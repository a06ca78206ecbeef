#if canImport(Glibc)
import Glibc
#endif
internal import CGlibcShims
import SystemPackage

/// The descriptors rwatch makes for one spawn: the child's output pipes,
/// and close-on-exec copies of the descriptors handed over
/// (`ProcessOptions.descriptors`), numbered above every number the child
/// gets, so that giving the child one number never overwrites the source
/// of another (rwatch's 2 as the child's 3 while a pipe becomes its 2).
struct ChildStreams {
    var stdout: (read: Int32, write: Int32) = (-1, -1)
    var stderr: (read: Int32, write: Int32) = (-1, -1)
    /// The child's number and rwatch's copy, for each handed descriptor.
    var handed: [(child: Int32, copy: Int32)] = []

    init(_ options: ProcessOptions, command: String) throws(ProcessError) {
        do {
            if options.captureOutput {
                stdout = try GNUFunctions.makePipe()
                stderr = try GNUFunctions.makePipe()
            }
        } catch {
            closeReadEnds()
            closeParentCopies()
            throw ProcessError(command: command, reason: .spawnFailed(error.errno), detail: Errno(rawValue: error.errno).description)
        }
        let floor = max(options.descriptors.keys.max() ?? 2, 2) + 1
        for (child, source) in options.descriptors.sorted(by: { $0.key < $1.key }) {
            let copy = fcntl(source, F_DUPFD_CLOEXEC, floor)
            guard copy >= 0 else {
                let code = errno
                closeReadEnds()
                closeParentCopies()
                throw ProcessError(command: command, reason: .spawnFailed(code), detail: "cannot hand over descriptor \(source): \(Errno(rawValue: code))")
            }
            handed.append((child, copy))
        }
    }

    /// After the spawn: the pipes' write ends and the copies are the child's now.
    func closeParentCopies() {
        for fd in [stdout.write, stderr.write] + handed.map(\.copy) where fd >= 0 { close(fd) }
    }

    /// The spawn failed: nobody will read the pipes.
    func closeReadEnds() {
        for fd in [stdout.read, stderr.read] where fd >= 0 { close(fd) }
    }
}

/// How one child is set up between its birth and its exec, as the options
/// ask: the process group, signals, standard streams, handed-over
/// descriptors, and every other descriptor closed. Described once, as the
/// C shim's steps (`CGlibcShims_spawn_setup`); each spawn lowers that one
/// description: `posix_spawn`'s file actions and attributes
/// (`withPosixSpawn`), or the clone3 child that takes the steps itself,
/// born in a run's cgroup (`ControlGroup.spawnInside`).
struct SpawnSetUp {
    /// The steps in the child's order; a step's path is in `paths` (the
    /// C step gets a pointer to it only for the spawn: `withDescription`).
    private var steps: [CGlibcShims_spawn_step] = []
    private var paths: [[UInt8]] = []
    /// `CGlibcShims_GROUP_SAME`, `_NEW` or `_SESSION`: rwatch's process
    /// group and signal mask, or a new group (or session) with no signal
    /// blocked.
    private let grouping: Int32

    init(_ options: ProcessOptions, streams: ChildStreams, withTerminal: Bool) {
        switch options.grouping {
        case .sameGroup: grouping = Int32(CGlibcShims_GROUP_SAME)
        case .newGroup: grouping = Int32(CGlibcShims_GROUP_NEW)
        case .newSession: grouping = Int32(CGlibcShims_GROUP_SESSION)
        }
        addStandardStreams(options, streams, withTerminal: withTerminal)
        for (child, copy) in streams.handed { add(CGlibcShims_STEP_DUP2, fd: child, source: copy) }
        // Nothing else reaches the child, whoever forgot CLOEXEC.
        add(CGlibcShims_STEP_CLOSEFROM, fd: max(streams.handed.map(\.child).max() ?? 2, 2) + 1)
    }

    /// Has the child start in `directory`; false where this C library's
    /// `posix_spawn` cannot (then neither spawn is asked to).
    mutating func changeDirectory(to directory: FilePath) -> Bool {
        guard CGlibcShims_has_addchdir() != 0 else { return false }
        add(CGlibcShims_STEP_CHDIR, fd: -1, path: directory.withPlatformString { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) })
        return true
    }

    private mutating func add(_ kind: Int, fd: Int32, source: Int32 = -1, flags: Int32 = 0, path: [UInt8] = []) {
        steps.append(CGlibcShims_spawn_step(kind: Int32(kind), fd: fd, source: source, flags: flags, path: nil))
        paths.append(path)
    }

    /// Standard input: `/dev/null` for a new group (a background group
    /// cannot read the terminal), the terminal for one it is handed to,
    /// rwatch's own in rwatch's group. Output: the pipes when captured, else
    /// rwatch's stdout and real standard error.
    private mutating func addStandardStreams(_ options: ProcessOptions, _ streams: ChildStreams, withTerminal: Bool) {
        // One handed the terminal keeps it as standard input; the exec shim
        // makes its group the foreground group (`ProcessLauncher.spawn`).
        if !withTerminal, options.grouping != .sameGroup {
            add(CGlibcShims_STEP_OPEN, fd: 0, flags: O_RDONLY, path: Array("/dev/null".utf8))
        }
        if options.captureOutput {
            add(CGlibcShims_STEP_DUP2, fd: 1, source: streams.stdout.write)
            add(CGlibcShims_STEP_DUP2, fd: 2, source: streams.stderr.write)
        } else if StandardError.descriptor != 2 {
            // Under a hosting rwatch, 2 is its crash-report pipe: the
            // command gets the real standard error.
            add(CGlibcShims_STEP_DUP2, fd: 2, source: StandardError.descriptor)
        }
    }

    /// Runs `body` with the description as C takes it, its paths valid
    /// until `body` returns.
    func withDescription<Result>(_ body: (UnsafePointer<CGlibcShims_spawn_setup>) -> Result) -> Result {
        CStrings.with(paths) { pathPointers in
            var resolved = steps
            for index in resolved.indices where !paths[index].isEmpty {
                resolved[index].path = UnsafePointer(pathPointers[index])
            }
            return resolved.withUnsafeBufferPointer { buffer in
                var setup = CGlibcShims_spawn_setup(steps: buffer.baseAddress, count: Int32(buffer.count), grouping: grouping)
                return body(&setup)
            }
        }
    }

    /// Runs `spawn` (a `posix_spawn`) with the file actions and attributes
    /// that lower this description, and returns its result; an errno
    /// instead, and `spawn` not run, when they cannot be made.
    func withPosixSpawn(_ spawn: (UnsafePointer<posix_spawn_file_actions_t>, UnsafePointer<posix_spawnattr_t>) -> Int32) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        let lowered = withDescription { CGlibcShims_spawn_setup_posix($0, &actions, &attributes) }
        guard lowered == 0 else { return lowered }
        return spawn(&actions, &attributes)
    }
}
