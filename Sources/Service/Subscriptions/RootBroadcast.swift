import Dispatch
import Signals
import WatchSources
import WatchmanProtocol

/// What one root tells the clients subscribed to it (and, through
/// `settled`, its triggers): results once its changes settle, and the
/// notices of its states.
///
/// It hangs off the root's `changes` (one hot signal per root, whatever
/// the number of subscribers), debounced by the root's `settle` period,
/// and off the version-control state of the repository holding the root
/// (`FileWatcher.vcsState`: a lock file means git or Mercurial is
/// rewriting the tree). Every evaluation and every push happens on its
/// serial `queue`, so a subscription's PDUs keep their order; the
/// subscriptions of one settle are evaluated side by side. A push never
/// blocks: a client whose queue is full is cut off (`cutOff`), and
/// nobody else waits for it.
final class RootBroadcast: Sendable {
    let root: Root
    let queue: DispatchQueue
    let version: String
    let log: ServiceLog

    struct State: Sendable {
        var subscriptions: [Subscription] = []
        /// By name, in the order they were made.
        var triggers: [Trigger] = []
        var states = AssertedStates()
        /// `metadata` of asserted states whose enter notice waits for the front of the queue.
        var waitingMetadata: [Int: WatchmanValue] = [:]
        var vcsBusy = false
        var listening: [any Disposable] = []
        var finished = false
    }

    let state = Locked(State())
    private let onFinished: @Sendable (RootBroadcast) -> Void

    init(root: Root, version: String, log: ServiceLog, onFinished: @escaping @Sendable (RootBroadcast) -> Void) {
        self.root = root
        self.version = version
        self.log = log
        self.onFinished = onFinished
        queue = DispatchQueue(label: "rwatch-broadcast-\(root.number)")
    }

    /// Starts listening to the root's changes and its repository's state.
    func start() {
        let settle = Duration.milliseconds(max(0, root.state.withLock { $0.configuration.settle }))
        let changes = root.changes.asSignal()
            .debounce(settle, maxWait: max(settle, .seconds(1)), scheduler: QueueScheduler(queue: queue))
            .subscribe(onNext: { [weak self] _ in self?.later { $0.settled() } },
                       onCompleted: { [weak self] in self?.later { $0.finish() } })
        let vcs = FileWatcher.vcsState(for: [root.filePath], reader: root.reader).subscribe(onNext: { [weak self] vcs in self?.noteVCS(vcs) })
        let late = state.withLock { state -> Bool in
            state.listening += [changes, vcs]
            return state.finished
        }
        if late { changes.dispose(); vcs.dispose() }
    }

    /// Runs `body` on `queue`, after what is queued there.
    private func later(_ body: @escaping @Sendable (RootBroadcast) -> Void) {
        queue.async { [self] in body(self) }
    }

    /// Whether it still serves (its root is watched).
    var isLive: Bool { state.withLock { !$0.finished } }

    /// git or Mercurial started or ended an operation: while a lock file
    /// is there (`index.lock`, `wlock`: what watchman looks at; a merge
    /// waiting for its commit holds nothing), subscriptions that defer for
    /// version control and triggers wait; when it ends, they run, on what
    /// the operation did as a whole.
    private func noteVCS(_ vcs: VCSState) {
        let busy = vcs.operations.contains { !$0.kind.waitsForPerson }
        let ended = state.withLock { state -> Bool in
            defer { state.vcsBusy = busy }
            return state.vcsBusy && !busy
        }
        // The operation's files were read before its end, but may not be
        // in the table yet: they are, before anything is answered.
        if ended { root.afterApplyingQueued { [self] in later { $0.settled() } } }
    }

    // MARK: Settling

    /// The root's changes have settled (or something that held results
    /// ended): each subscription behind the clock is evaluated, dropped
    /// forward, or held, as its policy says; then the triggers run. On `queue`.
    func settled() {
        guard root.isLive else { return }
        let tick = root.position.tick
        let (subscriptions, asserted, vcsBusy) = state.withLock {
            ($0.subscriptions, $0.states.assertedNames, $0.vcsBusy)
        }
        forEach(subscriptions) { subscription in
            let (lastTick, paused, started) = subscription.progress.withLock { ($0.lastTick, $0.paused, $0.started) }
            guard started else { return }
            switch subscription.spec.policy.atSettle(lastTick: lastTick, tick: tick, asserted: asserted, vcsBusy: vcsBusy, paused: paused) {
            case .evaluate:
                if let pdu = subscription.evaluate(version: version, log: log) { send(pdu, to: subscription) }
            case .drop:
                subscription.skip(to: root.position)
            case .upToDate, .deferUntilLeft, .deferForVCS, .paused:
                break
            }
        }
        if !vcsBusy { runTriggers(tick: tick) }
    }

    /// Runs `body` for each subscription, side by side when there are several.
    private func forEach(_ subscriptions: [Subscription], _ body: @Sendable (Subscription) -> Void) {
        if subscriptions.count < 2 {
            subscriptions.forEach(body)
        } else {
            DispatchQueue.concurrentPerform(iterations: subscriptions.count) { body(subscriptions[$0]) }
        }
    }

    /// Pushes `pdu` to the subscription's client; cuts the client's
    /// subscription off when its queue is full.
    func send(_ pdu: WatchmanValue, to subscription: Subscription) {
        switch subscription.client.push(pdu) {
        case .queued:
            break
        case .overLimit(let queued):
            cutOff(subscription, queued: queued)
        case .disconnected:
            remove(subscription)
        }
    }

    /// A client that reads too slowly: rather than queue without bound
    /// or hold anyone up, its subscription ends, and it is told so in
    /// watchman's form (`canceled`): it must subscribe and query again.
    private func cutOff(_ subscription: Subscription, queued: Int) {
        remove(subscription)
        subscription.client.push(subscription.cancellation(version: version), evenPastLimit: true)
        log.log(.error, "subscription \(subscription.name) of client \(subscription.client.id) cancelled: "
            + "\(queued) bytes wait unread (the limit is \(subscription.client.queueLimit))")
    }

    // MARK: Membership

    /// Adds `subscription`; false when the root is gone.
    func add(_ subscription: Subscription) -> Bool {
        let added = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            state.subscriptions.append(subscription)
            return true
        }
        if added { keepRootAlive() }
        return added
    }

    /// The subscription's first result (after the `subscribe` reply); from
    /// now on settles evaluate it. On `queue`.
    func begin(_ subscription: Subscription, initial: WatchmanValue?) {
        if let initial { send(initial, to: subscription) }
        let lastTick = subscription.progress.withLock { progress -> UInt64 in
            progress.started = true
            return progress.lastTick
        }
        if lastTick != root.position.tick { queue.async { [self] in settled() } }
    }

    /// Removes `subscription` (unsubscribed, cut off, its client gone).
    func remove(_ subscription: Subscription) {
        subscription.progress.withLock { $0.cancelled = true }
        state.withLock { state in state.subscriptions.removeAll { $0 === subscription } }
        keepRootAlive()
    }

    var subscriptions: [Subscription] { state.withLock { $0.subscriptions } }

    /// The root is not let go while idle as long as something here needs it.
    func keepRootAlive() {
        let needed = state.withLock { !$0.subscriptions.isEmpty || !$0.triggers.isEmpty }
        root.decide { $0.subscribersChanged(keep: needed) }
    }

    // MARK: The end

    /// The root is gone (`watch-del`, deleted, the service stopping):
    /// every subscription is told it was cancelled, every trigger stops.
    private func finish() {
        let (subscriptions, triggers, listening) = state.withLock { state -> ([Subscription], [Trigger], [any Disposable]) in
            state.finished = true
            defer {
                state.subscriptions = []
                state.triggers = []
                state.listening = []
            }
            return (state.subscriptions, state.triggers, state.listening)
        }
        for trigger in triggers { _ = trigger.remove() }
        for subscription in subscriptions {
            subscription.progress.withLock { $0.cancelled = true }
            subscription.client.push(subscription.cancellation(version: version), evenPastLimit: true)
        }
        for disposable in listening { disposable.dispose() }
        onFinished(self)
    }
}
