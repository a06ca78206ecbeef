import Signals
import SystemPackage

/// Files on virtual time: a tree in memory that a test changes, and the
/// inotify reader's own machine (`ReaderMachine`) deciding what each
/// change means for each watch, woken by the test's scheduler instead of a
/// thread. What a recipe's `FileWatcher.watch` sees in a `RecipeTest` is
/// what it would see on the kernel for the same records: an editor's save
/// in one piece once complete, a rename's halves paired, a new directory
/// walked, the tree's own `.gitignore` and `.ignore` files, default
/// ignores and globs applied.
///
/// Every input and every delivery happens on the thread that drives the
/// scheduler; the state is locked only so that the type is `Sendable`,
/// and no subscriber is called while the lock is held.
package final class VirtualFileSystem: FileSource, Sendable {
    // Safety: the machine holds its clients (classes the reader thread
    // owns elsewhere) and is not `Sendable`; here it is only read or
    // changed inside `state.withLock`, and nothing in it escapes the lock
    // but the actions, which are carried out after it is released.
    private struct State: @unchecked Sendable {
        var machine: ReaderMachine<VirtualTree>
        var nextID = 1
        /// The wake-up for the machine's next deadline, and when it is.
        var wake: (at: Double, timer: any Disposable)?
    }

    /// The directory relative paths start from.
    package let workingDirectory: FilePath
    private let scheduler: any Scheduler
    private let state: Locked<State>
    /// The next rename's cookie.
    private let cookies = Locked<UInt32>(1)
    /// The wall clock at virtual time zero (seconds).
    private static let epoch = 1_800_000_000.0
    /// What the watches announced (warnings, what they watch), in order.
    package let notices = PublishSubject<WatchNotice>()
    /// The new files held for the save window, on this clock.
    package let newFileHolds: NewFileHolds

    /// An empty tree holding `workingDirectory`, on `scheduler`'s clock.
    package init(workingDirectory: FilePath = "/project", scheduler: any Scheduler) {
        self.workingDirectory = workingDirectory
        self.scheduler = scheduler
        var tree = VirtualTree()
        _ = tree.makeDirectory(workingDirectory)
        let now = Self.time(scheduler.now)
        state = Locked(State(machine: ReaderMachine(system: tree, now: now)))
        newFileHolds = NewFileHolds(clock: { Self.time(scheduler.now).monotonic })
    }

    private static func time(_ now: Duration) -> ReaderTime {
        let seconds = Double(now.components.seconds) + Double(now.components.attoseconds) * 1e-18
        return ReaderTime(monotonic: 1_000 + seconds, wall: epoch + seconds)
    }

    /// `path` made absolute against the working directory.
    package func absolute(_ path: FilePath) -> FilePath {
        (path.isAbsolute ? path : workingDirectory.pushing(path)).lexicallyNormalized()
    }

    // MARK: FileSource

    package func batches(_ paths: [FilePath], options: WatchOptions) -> Signal<[FileEvent]> {
        var virtual = options
        // The tree is not on disk: no mount to choose by, and no global
        // excludes file (the user's own lives outside it); its own
        // `.gitignore`s and `.ignore`s are read from the tree.
        virtual.backend = .inotify
        virtual.useGlobalIgnore = false
        // No git configuration of the machine's either (a user's
        // `core.ignorecase` would change what a test sees).
        virtual.gitEnvironment = GitConfiguration.Environment(noSystem: true)
        let options = virtual
        let store = state.withLock { $0.machine.system.store }
        let roots = paths.map(absolute)
        return Signal { [self] observer in
            do {
                _ = try options.validated()
            } catch {
                observer.sendError(error)
                return ActionDisposable {}
            }
            let sink = EventSink(observer: observer, kinds: options.kinds)
            let id = state.withLock { state in
                defer { state.nextID += 1 }
                return state.nextID
            }
            let client = ReaderClient(id: id, paths: roots, options: options, sink: sink) { path, limit, follow in
                store.read(path, limit: limit, followSymlinks: follow)
            }
            input { $0.add(client, gate: nil) }
            return ActionDisposable { [self] in
                sink.end()
                input { $0.remove(id) }
            }
        }
    }

    package func vcsState(for paths: [FilePath]) -> Signal<VCSState> {
        let repositories = state.withLock { state in
            var found: [Repository] = []
            for path in paths {
                var directory = absolute(path)
                while true {
                    let dotGit = directory.appending(".git")
                    if state.machine.system.isDirectory(dotGit) {
                        let repository = Repository(kind: .git, top: directory, stateDirectory: dotGit, commonDirectory: dotGit)
                        if !found.contains(repository) { found.append(repository) }
                        break
                    }
                    let parent = directory.removingLastComponent()
                    if parent == directory { break }
                    directory = parent
                }
            }
            return found
        }
        return FileWatcher.vcsState(of: repositories) { directories, options in
            FileWatcher.flattened(self.batches(directories, options: options))
        }
    }

    package func modificationTime(_ path: FilePath) -> Int64? {
        state.withLock { $0.machine.system.changeTime(absolute(path)) }.map { Int64(($0 * 1e9).rounded()) }
    }

    package func wallClock() -> Int64 {
        Int64((Self.time(scheduler.now).wall * 1e9).rounded())
    }

    // MARK: Changing the tree

    /// Whether `path` (relative to the working directory) is a file now.
    package func exists(_ path: FilePath) -> Bool {
        state.withLock { $0.machine.system.isFile(absolute(path)) || $0.machine.system.isDirectory(absolute(path)) }
    }

    /// `changes`, made now one after the other (paths relative to the
    /// working directory), and read by the machine as one read: the
    /// records the kernel would queue for them, in order.
    package func apply(_ changes: [VirtualChange]) {
        let now = Self.time(scheduler.now)
        input { machine in
            var records: [InotifyRecord] = []
            for change in changes {
                records += apply(change, to: &machine.system, wall: now.wall)
            }
            return records.isEmpty ? [] : machine.read(records, at: now)
        }
    }

    private func apply(_ change: VirtualChange, to tree: inout VirtualTree, wall: Double) -> [InotifyRecord] {
        switch change {
        case .write(let path, let bytes): return tree.write(absolute(path), bytes, at: wall)
        case .makeDirectory(let path): return tree.makeDirectory(absolute(path))
        case .remove(let path): return tree.remove(absolute(path))
        case .link(let path): return tree.link(absolute(path), at: wall)
        case .changeAttributes(let path): return tree.touchAttributes(absolute(path), at: wall)
        case .rename(let from, let to):
            // Its own lock: this runs under `state`'s.
            let cookie = cookies.withLock { next in
                defer { next += 1 }
                return next
            }
            return tree.rename(absolute(from), to: absolute(to), cookie: cookie, at: wall)
        }
    }

    /// Gives the machine an input, then lets its queue settle, and carries
    /// out what it decided, outside the lock.
    private func input(_ body: (inout ReaderMachine<VirtualTree>) -> [ReaderMachine<VirtualTree>.Action]) {
        let now = Self.time(scheduler.now)
        let (actions, holds) = state.withLock { state in
            var actions = body(&state.machine)
            let (settled, more) = state.machine.queueEmpty(at: now)
            actions += more + state.machine.takeActions()
            if case .waitUntil(let ends) = settled { schedule(&state, ends) }
            if let deadline = state.machine.nextDeadline { schedule(&state, deadline) }
            return (actions, state.machine.clients.map { ($0.coalescer.newFilesDue, $0.sink) })
        }
        for (due, sink) in holds { newFileHolds.publish(due, for: sink) }
        perform(actions)
    }

    /// Wakes the machine at `deadline` (monotonic seconds), unless a
    /// wake-up comes sooner already.
    private func schedule(_ state: inout State, _ deadline: Double) {
        let now = Self.time(scheduler.now).monotonic
        if let wake = state.wake, wake.at <= deadline, wake.at >= now { return }
        state.wake?.timer.dispose()
        let delay = Duration.nanoseconds(Int64(((max(deadline - now, 0)) * 1e9).rounded(.up)))
        let timer = scheduler.schedule(after: delay) { [self] in
            let at = Self.time(scheduler.now)
            self.state.withLock { $0.wake = nil }
            input { machine in
                var actions = machine.deadlinePassed(at: at)
                if machine.remembersScanned { machine.quiet() }
                actions += machine.takeActions()
                return actions
            }
        }
        state.wake = (deadline, timer)
    }

    private func perform(_ actions: [ReaderMachine<VirtualTree>.Action]) {
        for action in actions {
            switch action {
            case .send(let events, let sink): sink.send(events)
            case .fail(let error, let sink): sink.fail(error)
            case .announce(let notice): notices.sendNext(notice)
            case .announceWatchHolders, .verbose, .poll, .trackedMayHaveChanged, .stopTracked: break
            }
        }
    }
}

/// One change a test makes to a `VirtualFileSystem`'s tree.
package enum VirtualChange: Sendable {
    /// Writes the file through one open (creating it, and its directories, when new).
    case write(FilePath, [UInt8])
    /// Makes a directory and those missing above it.
    case makeDirectory(FilePath)
    /// Deletes a file, link or directory tree.
    case remove(FilePath)
    /// Renames a file or directory (replacing a file at the target).
    case rename(FilePath, to: FilePath)
    /// Makes a symbolic link (emacs' lock file `.#name`).
    case link(FilePath)
    /// Changes the attributes (a `chmod`).
    case changeAttributes(FilePath)
}
