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

/// The file actions and attributes of one `posix_spawn`, as the options
/// ask: the process group, signals, standard streams, handed-over
/// descriptors, and every other descriptor closed.
struct SpawnSetUp {
    let actions = UnsafeMutablePointer<posix_spawn_file_actions_t>.allocate(capacity: 1)
    let attributes = UnsafeMutablePointer<posix_spawnattr_t>.allocate(capacity: 1)

    init(_ options: ProcessOptions, streams: ChildStreams, withTerminal: Bool) {
        posix_spawn_file_actions_init(actions)
        posix_spawnattr_init(attributes)
        addStandardStreams(options, streams, withTerminal: withTerminal)
        for (child, copy) in streams.handed { posix_spawn_file_actions_adddup2(actions, copy, child) }
        // Nothing else reaches the child, whoever forgot CLOEXEC.
        let lowest = max(streams.handed.map(\.child).max() ?? 2, 2) + 1
        if let addClosefrom = GNUFunctions.addClosefrom { _ = addClosefrom(actions, lowest) }
        setSignals(options.grouping)
    }

    /// Has the child start in `directory`; false where this C library cannot.
    func changeDirectory(to directory: FilePath) -> Bool {
        guard let addChdir = GNUFunctions.addChdir else { return false }
        _ = directory.withPlatformString { addChdir(actions, $0) }
        return true
    }

    func destroy() {
        posix_spawn_file_actions_destroy(actions)
        posix_spawnattr_destroy(attributes)
        actions.deallocate()
        attributes.deallocate()
    }

    /// Standard input: `/dev/null` for a new group (a background group
    /// cannot read the terminal), the terminal for one it is handed to,
    /// rwatch's own in rwatch's group. Output: the pipes when captured, else
    /// rwatch's stdout and real standard error.
    private func addStandardStreams(_ options: ProcessOptions, _ streams: ChildStreams, withTerminal: Bool) {
        // One handed the terminal keeps it as standard input; the exec shim
        // makes its group the foreground group (`ProcessLauncher.spawn`).
        if !withTerminal, options.grouping == .newGroup {
            posix_spawn_file_actions_addopen(actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if options.captureOutput {
            posix_spawn_file_actions_adddup2(actions, streams.stdout.write, 1)
            posix_spawn_file_actions_adddup2(actions, streams.stderr.write, 2)
        } else if StandardError.descriptor != 2 {
            // Under a hosting rwatch, 2 is its crash-report pipe: the
            // command gets the real standard error.
            posix_spawn_file_actions_adddup2(actions, StandardError.descriptor, 2)
        }
    }

    /// Every signal back to its default (rwatch ignores or handles SIGTERM
    /// & co., and SIG_IGN survives exec). A new group is led by the child
    /// and blocks nothing; in rwatch's group the blocked stop signals stay
    /// blocked, so that one that comes before the program's own signal
    /// owner runs waits for it.
    private func setSignals(_ grouping: ProcessOptions.Grouping) {
        var everySignal = ProcessLauncher.everySignal()
        posix_spawnattr_setsigdefault(attributes, &everySignal)
        switch grouping {
        case .newGroup:
            var noSignal = sigset_t()
            sigemptyset(&noSignal)
            posix_spawnattr_setflags(attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
            posix_spawnattr_setpgroup(attributes, 0)
            posix_spawnattr_setsigmask(attributes, &noSignal)
        case .sameGroup:
            posix_spawnattr_setflags(attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        }
    }
}
