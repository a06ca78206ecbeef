#if canImport(Glibc)
import Glibc
#endif
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
/// descriptors, and every other descriptor closed. One list of steps,
/// which either spawn follows: `posix_spawn`'s file actions, or the
/// clone3 spawn straight into a run's cgroup (`ControlGroup.spawnInside`).
struct SpawnSetUp {
    /// One step, in the order the child takes them.
    enum Step {
        /// `open(path, flags)` as descriptor `fd`.
        case open(fd: Int32, path: [UInt8], flags: Int32)
        /// `dup2(source, fd)`.
        case dup2(source: Int32, fd: Int32)
        /// Every descriptor from `fd` up closed.
        case closeFrom(Int32)
        /// `chdir(path)`.
        case changeDirectory([UInt8])
    }

    private(set) var steps: [Step] = []
    /// Whether the child leads a new process group, with no signal blocked
    /// (else it stays in rwatch's, with rwatch's mask).
    let newGroup: Bool
    /// Whether it leads a new session besides (`setsid`: no terminal).
    let newSession: Bool

    init(_ options: ProcessOptions, streams: ChildStreams, withTerminal: Bool) {
        newGroup = options.grouping != .sameGroup
        newSession = options.grouping == .newSession
        addStandardStreams(options, streams, withTerminal: withTerminal)
        for (child, copy) in streams.handed { steps.append(.dup2(source: copy, fd: child)) }
        // Nothing else reaches the child, whoever forgot CLOEXEC.
        steps.append(.closeFrom(max(streams.handed.map(\.child).max() ?? 2, 2) + 1))
    }

    /// Has the child start in `directory`; false where this C library's
    /// `posix_spawn` cannot.
    mutating func changeDirectory(to directory: FilePath) -> Bool {
        guard GNUFunctions.addChdir != nil else { return false }
        steps.append(.changeDirectory(directory.withPlatformString { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }))
        return true
    }

    /// Standard input: `/dev/null` for a new group (a background group
    /// cannot read the terminal), the terminal for one it is handed to,
    /// rwatch's own in rwatch's group. Output: the pipes when captured, else
    /// rwatch's stdout and real standard error.
    private mutating func addStandardStreams(_ options: ProcessOptions, _ streams: ChildStreams, withTerminal: Bool) {
        // One handed the terminal keeps it as standard input; the exec shim
        // makes its group the foreground group (`ProcessLauncher.spawn`).
        if !withTerminal, options.grouping != .sameGroup {
            steps.append(.open(fd: 0, path: Array("/dev/null".utf8), flags: O_RDONLY))
        }
        if options.captureOutput {
            steps.append(.dup2(source: streams.stdout.write, fd: 1))
            steps.append(.dup2(source: streams.stderr.write, fd: 2))
        } else if StandardError.descriptor != 2 {
            // Under a hosting rwatch, 2 is its crash-report pipe: the
            // command gets the real standard error.
            steps.append(.dup2(source: StandardError.descriptor, fd: 2))
        }
    }

    /// Runs `body` with `posix_spawn`'s file actions and attributes for
    /// these steps.
    func withPosixSpawn<Result>(_ body: (UnsafePointer<posix_spawn_file_actions_t>, UnsafePointer<posix_spawnattr_t>) -> Result) -> Result {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        for step in steps {
            switch step {
            case .open(let fd, let path, let flags):
                _ = CStrings.with([path]) { posix_spawn_file_actions_addopen(&actions, fd, $0[0]!, flags, 0) }
            case .dup2(let source, let fd):
                posix_spawn_file_actions_adddup2(&actions, source, fd)
            case .closeFrom(let fd):
                if let addClosefrom = GNUFunctions.addClosefrom { _ = addClosefrom(&actions, fd) }
            case .changeDirectory(let path):
                _ = CStrings.with([path]) { GNUFunctions.addChdir?(&actions, $0[0]!) }
            }
        }
        setSignals(&attributes)
        return body(&actions, &attributes)
    }

    /// Every signal back to its default (rwatch ignores or handles SIGTERM
    /// & co., and SIG_IGN survives exec). A new group is led by the child
    /// and blocks nothing; in rwatch's group the blocked stop signals stay
    /// blocked, so that one that comes before the program's own signal
    /// owner runs waits for it.
    private func setSignals(_ attributes: UnsafeMutablePointer<posix_spawnattr_t>) {
        var everySignal = ProcessLauncher.everySignal()
        posix_spawnattr_setsigdefault(attributes, &everySignal)
        if newGroup {
            var noSignal = sigset_t()
            sigemptyset(&noSignal)
            // setsid makes the child lead a new group too.
            let grouping = newSession ? Self.spawnSetsid : POSIX_SPAWN_SETPGROUP
            posix_spawnattr_setflags(attributes, Int16(grouping | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
            posix_spawnattr_setpgroup(attributes, 0)
            posix_spawnattr_setsigmask(attributes, &noSignal)
        } else {
            posix_spawnattr_setflags(attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        }
    }

    /// glibc's `POSIX_SPAWN_SETSID` (since 2.26), which its header hides
    /// without `_GNU_SOURCE`: the child calls setsid(2) before its exec.
    private static let spawnSetsid: Int32 = 0x80
}
