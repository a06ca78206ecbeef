import WatchSources

/// Everything a root decides about its life and its syncing, as a value:
/// whether it crawls, is ready or is over; who waits for the first crawl
/// and for which sync cookie; the events delivered and not yet applied;
/// who writes the table now (`RootWriter`: the worker, or for a moment
/// the reader's thread or the socket loop) and who waits to; its
/// recrawls; when it was last used and what keeps it.
///
/// It owns no thread, lock, clock or file: time comes with each input,
/// and what needs doing comes back as `Action`s for `Root`, its one
/// owner, to perform once the lock on the machine is let go. `Waiter` is
/// what a blocked caller waits on (a semaphore for `Root`; anything in
/// tests): the machine only hands it back to be woken. The table of files is
/// not here: it is data the root's writer changes, not a decision.
struct RootMachine<Waiter: Sendable>: Sendable {
    /// What the owner does for the machine.
    enum Action: Sendable {
        /// Applies the inbox on this thread (the reader's), which now
        /// writes the table (`RootWriter.reader`) until `writeEnded`.
        case applyHere
        /// Queues a drain of the inbox on the worker.
        case scheduleDrain
        /// Tells `changes` the clock reached this tick (what
        /// subscriptions run their queries on).
        case publishTick(UInt32)
        /// Wakes one blocked caller (a first crawl ended, a cookie seen,
        /// the root over).
        case signal(Waiter)
        /// Lets go of the watcher's subscriptions.
        case stopWatching
        /// Completes `changes`: no tick follows.
        case completeChanges
        /// Tells the registry the root failed by itself, so it lets it go.
        case leaveRegistry
        /// Forgets entries deleted more than this many seconds ago.
        case ageOut(olderThan: Int64)
    }

    /// The events the watcher delivered that are not applied yet, and
    /// who will apply them.
    struct Inbox: Sendable {
        var events: [FileEvent] = []
        /// A drain is queued on the worker (or running there, or on the
        /// reader's thread).
        var scheduled = false
        /// Syncs about to have the worker drain for them: no drain is
        /// scheduled for what they will have applied anyway.
        var syncing = 0
    }

    /// Crawling, ready, or over for good.
    private(set) var phase: RootPhase = .crawling
    /// What the watcher delivered and no one has applied yet.
    private(set) var inbox = Inbox()
    /// Who writes the table now; nil when no one does.
    private(set) var writer: RootWriter? = nil
    /// The worker, waiting for the table while another writes it: the
    /// one who may wait (the others are refused, and the worker applies
    /// for them).
    private(set) var workerWaiting: Waiter? = nil
    /// Sync cookies waited for, by serial.
    private(set) var cookies: [UInt64: Waiter] = [:]
    /// Those waiting for the first crawl to end.
    private(set) var readyWaiters: [Waiter] = []
    /// Whole crawls since the first, and why the last one ran: what
    /// replies warn of.
    private(set) var recrawls = 0
    private(set) var recrawlReason: String? = nil
    /// When the crawl under way, or the last one, began and ended (nil
    /// while it runs): what `debug-root-status` reports.
    private(set) var crawlStarted: ContinuousClock.Instant
    private(set) var crawlFinished: ContinuousClock.Instant? = nil
    /// Polled subtrees (relative), where sync cookies are written too.
    private(set) var polled: Set<[UInt8]> = []
    /// When a command last used the root (Unix seconds), for reaping.
    private(set) var lastUsed: Int64
    /// When deleted entries were last aged out (Unix seconds).
    private(set) var lastAgeOut: Int64
    /// Something other than commands keeps the root (subscriptions and
    /// triggers): it is not reaped while idle.
    private(set) var keptAlive = false

    /// A root about to crawl for the first time, at `now` (monotonic) and
    /// `wall` (Unix seconds).
    init(now: ContinuousClock.Instant, wall: Int64) {
        crawlStarted = now
        lastUsed = wall
        lastAgeOut = wall
    }

    /// Crawling or ready: not failed nor cancelled.
    var isLive: Bool {
        switch phase {
        case .crawling, .ready: true
        case .failed, .cancelled: false
        }
    }

    // MARK: Events

    /// The watcher delivered `events`, and its reader has `readerBehind`
    /// more records queued in the kernel (a storm). Queued; the first
    /// batch after a drain wakes one applier: this thread for a `quick`
    /// batch (a few `lstat`s) on a ready root with nothing behind it,
    /// else the worker (which applies a storm's batches at once). None
    /// while a drain is scheduled (it takes these too) or a sync is about
    /// to drain.
    mutating func received(_ events: [FileEvent], quick: Bool, readerBehind: Bool) -> [Action] {
        inbox.events.append(contentsOf: events)
        guard !inbox.scheduled, inbox.syncing == 0 else { return [] }
        inbox.scheduled = true
        guard quick, !readerBehind, phase == .ready, writer == nil else { return [.scheduleDrain] }
        writer = .reader
        return [.applyHere]
    }

    /// The events to apply next, taken out of the inbox; none (and no
    /// drain scheduled any more) once it is empty.
    mutating func takeEvents() -> [FileEvent] {
        defer { inbox.events = [] }
        if inbox.events.isEmpty { inbox.scheduled = false }
        return inbox.events
    }

    /// The clock moved to `tick`: a drain applied what it took, a crawl
    /// or recrawl ended, or a sync moved it with nothing changed (as
    /// watchman's cookie does). Subscriptions are told, by this input
    /// only; a clock out of ticks ends the root (a new instance: clients
    /// watch again and get one fresh answer, rather than a clock that
    /// wrapped). Nothing once the root is over: `changes` has completed.
    mutating func applied(tick: UInt32, exhausted: Bool) -> [Action] {
        guard isLive else { return [] }
        return [.publishTick(tick)] + (exhausted ? failed(Self.clockExhausted) : [])
    }

    /// Why a root whose clock ran out ended.
    static var clockExhausted: String { "the root's clock ran out of ticks; watch it again" }

    /// A sync is about to drain on its own thread.
    mutating func syncBegan() {
        inbox.syncing += 1
    }

    /// A sync has drained: events that came too late for it (and that no
    /// one else will apply) wake the worker.
    mutating func syncEnded() -> [Action] {
        inbox.syncing -= 1
        guard !inbox.events.isEmpty, !inbox.scheduled, inbox.syncing == 0 else { return [] }
        inbox.scheduled = true
        return [.scheduleDrain]
    }

    /// Whether a sync can answer on the caller's thread, before asking
    /// the reader: the root is ready and nothing is polled (no cookie to
    /// wait for).
    var maySyncWithoutWaiting: Bool {
        phase == .ready && polled.isEmpty
    }

    // MARK: Writing
    //
    // Who writes the table: the machine's answer replaces a lock, so that
    // the reader's thread and the socket loop, which must never wait, are
    // refused (and the worker applies for them), while the worker, which
    // may wait, is handed the table when the one writing lets go.

    /// The worker wants to write: true when it now may; false when it is
    /// to wait on `waiter`, which is woken once it may (the table is then
    /// its own).
    mutating func workerWrites(_ waiter: Waiter) -> Bool {
        guard writer != nil else {
            writer = .worker
            return true
        }
        precondition(workerWaiting == nil, "one worker waits at most: it is a serial queue")
        workerWaiting = waiter
        return false
    }

    /// The socket loop wants to move the clock for a sync, on a ready
    /// root with nothing polled (no cookie to wait for): it may only if
    /// no one writes and nothing delivered waits to be applied (which
    /// the sync would have to include).
    mutating func loopSyncs() -> Bool {
        guard maySyncWithoutWaiting, inbox.events.isEmpty, writer == nil else { return false }
        writer = .loop
        return true
    }

    /// Whoever wrote is done: a waiting worker gets the table.
    mutating func writeEnded() -> [Action] {
        precondition(writer != nil, "a write ended that was not begun")
        guard let waiting = workerWaiting else {
            writer = nil
            return []
        }
        workerWaiting = nil
        writer = .worker
        return [.signal(waiting)]
    }

    // MARK: Crawls

    /// The first crawl ended at `now`: the root is ready (unless it ended
    /// meanwhile), and those waiting for it are woken.
    mutating func crawlEnded(now: ContinuousClock.Instant) -> [Action] {
        if phase == .crawling { phase = .ready }
        crawlFinished = now
        defer { readyWaiters = [] }
        return readyWaiters.map { .signal($0) }
    }

    /// A whole crawl again, from `now`, because of `reason`.
    mutating func recrawlStarted(because reason: String, now: ContinuousClock.Instant) {
        recrawls += 1
        recrawlReason = reason
        crawlStarted = now
        crawlFinished = nil
    }

    /// A recrawl ended at `now`.
    mutating func recrawlEnded(now: ContinuousClock.Instant) {
        crawlFinished = now
    }

    /// Someone waits for the first crawl on `waiter`: false (and not
    /// kept) when there is nothing to wait for.
    mutating func waitForReady(_ waiter: Waiter) -> Bool {
        guard phase == .crawling else { return false }
        readyWaiters.append(waiter)
        return true
    }

    // MARK: Cookies

    /// A sync waits on `waiter` for the cookie `serial`.
    mutating func cookieAwaited(_ serial: UInt64, _ waiter: Waiter) {
        cookies[serial] = waiter
    }

    /// A sync no longer waits for `serial`: it could not be written.
    mutating func cookieAbandoned(_ serial: UInt64) {
        cookies[serial] = nil
    }

    /// A sync's deadline passed before all of its cookies (`serials`)
    /// were seen: it waits for none of them any more, and a cookie seen
    /// later wakes no one.
    mutating func syncDeadlinePassed(_ serials: [UInt64]) {
        for serial in serials { cookies[serial] = nil }
    }

    /// The serials of the cookies waited for.
    var awaitedCookies: Set<UInt64> { Set(cookies.keys) }

    /// The watcher saw the cookies `serials`: their syncs are woken.
    mutating func cookiesSeen(_ serials: [UInt64]) -> [Action] {
        serials.compactMap { cookies.removeValue(forKey: $0) }.map { .signal($0) }
    }

    /// The poller announced a polled subtree (relative): syncs write a
    /// cookie there too.
    mutating func polledSubtree(_ relative: [UInt8]) {
        polled.insert(relative)
    }

    // MARK: The end

    /// The root failed by itself (`reason`): it stops watching, wakes
    /// every waiter, ends `changes` and leaves the registry. Nothing if
    /// it was over already.
    mutating func failed(_ reason: String) -> [Action] {
        guard isLive else { return [] }
        return finish(.failed(reason)) + [.leaveRegistry]
    }

    /// `watch-del`, `watch-del-all`, or the service stopping.
    mutating func cancelled() -> [Action] {
        finish(.cancelled)
    }

    private mutating func finish(_ end: RootPhase) -> [Action] {
        phase = end
        let waiters = readyWaiters + Array(cookies.values)
        readyWaiters = []
        cookies = [:]
        return [.stopWatching] + waiters.map { .signal($0) } + [.completeChanges]
    }

    // MARK: Use and care

    /// A command used the root at `wall` (Unix seconds).
    mutating func used(wall: Int64) {
        lastUsed = wall
    }

    /// A subscription or trigger was added, or one is gone; `keep` says
    /// whether any is left, which keeps the root from being reaped while
    /// idle. Nothing to do now: `housekeep` decides.
    mutating func subscribersChanged(keep: Bool) -> [Action] {
        keptAlive = keep
        return []
    }

    /// Periodic care at `wall` (Unix seconds): ages out deleted entries
    /// every `configuration.gcIntervalSeconds`; `reap` when the root has
    /// been idle past `idleReapAgeSeconds` and nothing keeps it.
    mutating func housekeep(wall: Int64, _ configuration: RootConfiguration) -> (actions: [Action], reap: Bool) {
        var actions: [Action] = []
        let interval = configuration.gcIntervalSeconds
        if interval > 0, wall - lastAgeOut >= interval {
            actions.append(.ageOut(olderThan: configuration.gcAgeSeconds))
            lastAgeOut = wall
        }
        let idle = configuration.idleReapAgeSeconds
        return (actions, idle > 0 && !keptAlive && wall - lastUsed >= idle)
    }
}
