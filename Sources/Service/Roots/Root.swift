import Dispatch
import Glibc
import Signals
import SystemPackage
import WatchSources

/// One watched root: its table of what it has seen, kept current by one
/// hot, shared `FileWatcher` subscription, and its clock.
///
/// What the root decides (crawling or ready or over, who waits for what,
/// who applies the events delivered) is one `RootMachine` under a lock of
/// its own (`machine`, never held with `state`'s, so that the watcher's
/// thread handing over a batch never waits for the table being written):
/// each input is given to it there, and the `Action`s it returns are
/// performed here (`perform`) once the lock is let go, so no waiter is
/// woken and no observer called under it.
///
/// One writer of the table at a time, as the machine decides
/// (`RootWriter`): the worker queue does the first crawl, each batch of
/// events the watcher delivers (`Root+Events`), a full crawl after a
/// queue overflow (`Root+Walk`) and a sync's drain; the machine lets the
/// watcher's thread apply a small batch of files, and the socket loop
/// move the clock for a sync, only when no one writes (they never wait),
/// and hands the table to a waiting worker when they are done.
/// File-system calls happen outside the table's lock; what they found is
/// applied under it, one tick of the clock per application. Queries
/// copy the table under the lock (a copy-on-write snapshot, O(1)) and
/// evaluate outside it, so a long query never holds up the watcher.
/// `changes` sends the tick after each application: what subscriptions
/// hang off.
final class Root: Sendable {
    /// Where the root is in its life (`RootPhase`).
    typealias Phase = RootPhase

    /// The machine of a live root: its waiters are semaphores.
    typealias Machine = RootMachine<DispatchSemaphore>

    /// What the root's lock guards: the table, and the configuration it
    /// is kept under.
    struct State: Sendable {
        var table: FileTable
        var cursors: [String: UInt64] = [:]
        var configuration: RootConfiguration
        var shape: WatchShape
        /// Why the `.watchmanconfig` now on disk is not used (the one before it is).
        var configurationProblem: String? = nil
        /// Directories the last walk could not list (relative path to the
        /// reason), reported as a warning until one lists again: what is
        /// below them counts as deleted meanwhile, as watchman has it.
        var unlistable: [[UInt8]: String] = [:]
        var subscription: (any Disposable)? = nil
        var noticeSubscription: (any Disposable)? = nil
    }

    /// Absolute and canonical (`realpath`).
    let path: [UInt8]
    /// This instance of the root: clocks of another are fresh instances.
    let number: UInt64
    /// When the root was watched (its `uptime`).
    let started = ContinuousClock.now
    let state: Locked<State>
    /// What the root decides. Taken alone: never while holding `state`,
    /// nor `state` while holding it.
    let machine: Locked<Machine>
    /// The root's own inotify reader: another root's storm never holds up
    /// this one's syncs (`FileWatcher.Reader`).
    let reader = FileWatcher.Reader()
    let worker: DispatchQueue
    let hashes: ContentHashes
    /// The tick after each batch applied (hot, shared: issue 25's subscriptions).
    let changes = PublishSubject<UInt32>()
    /// Called once when the root fails by itself (deleted): the registry lets it go.
    let onFailure: @Sendable (Root) -> Void

    init(path: [UInt8], number: UInt64, configuration: RootConfiguration, rootStat: FileStat,
         onFailure: @escaping @Sendable (Root) -> Void) {
        self.path = path
        self.number = number
        self.onFailure = onFailure
        worker = DispatchQueue(label: "rwatch-root-\(number)")
        hashes = ContentHashes(capacity: Int(clamping: configuration.value("content_hash_max_items")?.integer ?? Int64(ContentHashes.defaultCapacity)))
        state = Locked(State(table: FileTable(root: rootStat), configuration: configuration, shape: WatchShape(configuration)))
        machine = Locked(Machine(now: .now, wall: Int64(time(nil))))
    }

    var filePath: FilePath { FilePath(bytes: path) }

    /// Subscribes to the watcher, then crawls; `waitUntilReady` returns once done.
    func start() {
        worker.async { [self] in
            let actions = writingOnWorker { () -> [Machine.Action] in
                subscribe()
                guard isLive else { return [] }
                state.withLock { $0.table.setLogging(false) }
                walk(from: 0, [], threads: Root.crawlThreads)
                state.withLock { $0.table.setLogging(true) }
                return machine.withLock { $0.crawlEnded(now: .now) }
            }
            perform(actions)
            warmHashes(nil)
            let (tick, exhausted) = state.withLock { ($0.table.tick, $0.table.isExhausted) }
            decide { $0.applied(tick: tick, exhausted: exhausted) }
            drain()
        }
    }

    var phase: Phase { machine.withLock { $0.phase } }
    var isLive: Bool { machine.withLock { $0.isLive } }

    /// Waits until the first crawl is done (or the root failed); false on timeout.
    func waitUntilReady(timeout: Duration) -> Bool {
        waitUntilReady(until: .after(timeout))
    }

    /// Notes that a command used the root.
    func touch() {
        machine.withLock { $0.used(wall: Int64(time(nil))) }
    }

    /// Subscribes to the watcher with the current shape (blocks until its watches are in place).
    func subscribe() {
        let options = state.withLock { $0.shape.watchOptions }
        // Notices first: arming announces the mounts it polls.
        let notices = FileWatcher.notices.subscribe(onNext: { [weak self] notice in self?.noted(notice) })
        let subscription = FileWatcher.batches([filePath], options: options, reader: reader).subscribe(
            onNext: { [weak self] events in self?.receive(events) },
            onError: { [weak self] error in
                guard let self else { return }
                worker.async { self.fail("root dir was removed or is inaccessible (\(error))") }
            }
        )
        let previous = state.withLock { state -> [any Disposable] in
            defer {
                state.subscription = subscription
                state.noticeSubscription = notices
            }
            return [state.subscription, state.noticeSubscription].compactMap { $0 }
        }
        for old in previous { old.dispose() }
    }

    /// A polled subtree below the root gets a cookie of its own on each sync.
    private func noted(_ notice: WatchNotice) {
        guard case .polling = notice.kind,
              let relative = notice.path.withBytes({ ChangePlan.relative(Array($0), to: path) }) else { return }
        machine.withLock { $0.polledSubtree(relative) }
    }

    /// Stops watching: the watcher is let go, waiters are told.
    func cancel() {
        decide { $0.cancelled() }
    }

    /// The root failed by itself: stop, and leave the registry.
    func fail(_ reason: String) {
        decide { $0.failed(reason) }
    }

    /// Runs `body` on the worker as the table's one writer, first waiting
    /// for the reader's thread or the socket loop to be done if one of
    /// them writes (the machine hands the table over then). Only on the
    /// worker: a serial queue, so at most one waits.
    func writingOnWorker<T>(_ body: () -> T) -> T {
        let waiter = DispatchSemaphore(value: 0)
        if !machine.withLock({ $0.workerWrites(waiter) }) { waiter.wait() }
        defer { decide { $0.writeEnded() } }
        return body()
    }

    /// Gives the machine one input under its lock, then performs what it decided.
    func decide(_ input: (inout Machine) -> [Machine.Action]) {
        perform(machine.withLock { input(&$0) })
    }

    /// Carries out the machine's actions, in order, with no lock held.
    /// `applyHere` is only returned to the watcher's thread (`receive`).
    func perform(_ actions: [Machine.Action]) {
        for action in actions {
            switch action {
            case .applyHere: applyOnReader()
            case .scheduleDrain: worker.async { [self] in drain() }
            case .publishTick(let tick): changes.sendNext(tick)
            case .signal(let waiter): waiter.signal()
            case .stopWatching: stopWatching()
            case .completeChanges: changes.sendCompleted()
            case .leaveRegistry: onFailure(self)
            case .ageOut(let seconds): ageOut(olderThan: seconds)
            }
        }
    }

    /// Lets go of the watcher's subscriptions.
    private func stopWatching() {
        let subscriptions = state.withLock { state -> [any Disposable] in
            defer {
                state.subscription = nil
                state.noticeSubscription = nil
            }
            return [state.subscription, state.noticeSubscription].compactMap { $0 }
        }
        for subscription in subscriptions { subscription.dispose() }
    }

    /// Why the root can answer nothing, or nil while it can.
    var unavailableReason: String? {
        switch phase {
        case .crawling, .ready: nil
        case .failed(let reason): reason
        case .cancelled: "root was cancelled"
        }
    }
}
