import Dispatch
import Glibc
import Signals
import SystemPackage
import WatchSources

/// One watched root: its table of what it has seen, kept current by one
/// hot, shared `FileWatcher` subscription, and its clock.
///
/// One writer at a time (`writing`): a worker queue does the first crawl,
/// each batch of events the watcher delivers (`Root+Events`; a small batch
/// of files is applied on the watcher's thread when no one else writes),
/// and a full crawl after a queue overflow (`Root+Walk`); a sync applies
/// what is queued on its own thread. File-system calls happen outside the
/// lock; what they found is applied under it, one tick of the clock per
/// application. Queries copy the table under the lock (a copy-on-write
/// snapshot, O(1)) and evaluate outside it, so a long query never holds
/// up the watcher. `changes` sends the tick after each application: what
/// subscriptions hang off.
final class Root: Sendable {
    enum Phase: Sendable, Equatable {
        case crawling
        case ready
        /// Gone for good (the root was deleted, or could not be watched).
        case failed(String)
        /// `watch-del`, `watch-del-all`, or the service stopping.
        case cancelled
    }

    struct State: Sendable {
        var table: FileTable
        var phase: Phase = .crawling
        var cursors: [String: UInt64] = [:]
        var configuration: RootConfiguration
        var shape: WatchShape
        /// Sync cookies waited for, by serial.
        var cookies: [UInt64: DispatchSemaphore] = [:]
        /// Those waiting for the first crawl to end.
        var readyWaiters: [DispatchSemaphore] = []
        var recrawls = 0
        /// When the crawl under way, or the last one, began and ended (nil
        /// while it runs): what `debug-root-status` reports.
        var crawlStarted = ContinuousClock.now
        var crawlFinished: ContinuousClock.Instant? = nil
        var recrawlReason: String? = nil
        /// Why the `.watchmanconfig` now on disk is not used (the one before it is).
        var configurationProblem: String? = nil
        /// Directories the last walk could not list (relative path to the
        /// reason), reported as a warning until one lists again: what is
        /// below them counts as deleted meanwhile, as watchman has it.
        var unlistable: [[UInt8]: String] = [:]
        /// Polled subtrees (relative), where sync cookies are written too.
        var polled: Set<[UInt8]> = []
        /// When a command last used the root (Unix seconds), for reaping.
        var lastUsed: Int64
        /// When deleted entries were last aged out (Unix seconds).
        var lastAgeOut: Int64 = Int64(time(nil))
        /// Something other than commands keeps the root (issue 25's
        /// subscriptions and triggers): it is not reaped while idle.
        var keptAlive = false
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
    let inbox = Locked(Inbox())
    /// Held by whoever writes the table from what was found (the crawl,
    /// `drain`): the worker, or a sync catching up on its own thread. Taken
    /// before `state`, never while holding it.
    let writing = Lock()
    /// The root's own inotify reader: another root's storm never holds up
    /// this one's syncs (`FileWatcher.Reader`).
    let reader = FileWatcher.Reader()
    let worker: DispatchQueue
    let hashes: ContentHashes
    /// The tick after each batch applied (hot, shared: issue 25's subscriptions).
    let changes = PublishSubject<UInt32>()
    /// Called once when the root fails by itself (deleted): the registry lets it go.
    let onFailure: @Sendable (Root) -> Void

    struct Inbox: Sendable {
        var events: [FileEvent] = []
        /// A drain is queued on the worker (or running there).
        var scheduled = false
        /// Syncs about to drain on their own threads: the worker is not
        /// woken for what they will apply anyway.
        var syncing = 0
    }

    init(path: [UInt8], number: UInt64, configuration: RootConfiguration, rootStat: FileStat,
         onFailure: @escaping @Sendable (Root) -> Void) {
        self.path = path
        self.number = number
        self.onFailure = onFailure
        worker = DispatchQueue(label: "rwatch-root-\(number)")
        hashes = ContentHashes(capacity: Int(clamping: configuration.value("content_hash_max_items")?.integer ?? Int64(ContentHashes.defaultCapacity)))
        state = Locked(State(table: FileTable(root: rootStat), configuration: configuration,
                             shape: WatchShape(configuration), lastUsed: Int64(time(nil))))
    }

    var filePath: FilePath { FilePath(bytes: path) }

    /// Subscribes to the watcher, then crawls; `waitUntilReady` returns once done.
    func start() {
        worker.async { [self] in
            let waiters = writing.withLock { () -> [DispatchSemaphore] in
                subscribe()
                guard isLive else { return [] }
                state.withLock { $0.table.setLogging(false) }
                walk(from: 0, [], threads: Root.crawlThreads)
                return state.withLock { state -> [DispatchSemaphore] in
                    state.table.setLogging(true)
                    if state.phase == .crawling { state.phase = .ready }
                    state.crawlFinished = .now
                    defer { state.readyWaiters = [] }
                    return state.readyWaiters
                }
            }
            for waiter in waiters { waiter.signal() }
            warmHashes(nil)
            changes.sendNext(state.withLock { $0.table.tick })
            drain()
        }
    }

    var phase: Phase { state.withLock { $0.phase } }
    var isLive: Bool {
        switch phase {
        case .crawling, .ready: true
        case .failed, .cancelled: false
        }
    }

    /// Waits until the first crawl is done (or the root failed); false on timeout.
    func waitUntilReady(timeout: Duration) -> Bool {
        waitUntilReady(until: .after(timeout))
    }

    /// Notes that a command used the root.
    func touch() {
        state.withLock { $0.lastUsed = Int64(time(nil)) }
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
        state.withLock { _ = $0.polled.insert(relative) }
    }

    /// Stops watching: the watcher is let go, waiters are told.
    func cancel() {
        finish(.cancelled)
    }

    /// The root failed by itself: stop, and leave the registry.
    func fail(_ reason: String) {
        guard isLive else { return }
        finish(.failed(reason))
        onFailure(self)
    }

    private func finish(_ phase: Phase) {
        let (subscriptions, waiters) = state.withLock { state -> ([any Disposable], [DispatchSemaphore]) in
            state.phase = phase
            let subscriptions = [state.subscription, state.noticeSubscription].compactMap { $0 }
            state.subscription = nil
            state.noticeSubscription = nil
            let waiters = state.readyWaiters + Array(state.cookies.values)
            state.readyWaiters = []
            state.cookies = [:]
            return (subscriptions, waiters)
        }
        for subscription in subscriptions { subscription.dispose() }
        for waiter in waiters { waiter.signal() }
        changes.sendCompleted()
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
