import Signals
import WatchmanProtocol

/// One client's subscription to one root: its query, where it has got
/// to on the root's clock, and the PDUs it makes.
///
/// Evaluated only on its root's broadcast queue (a settle, a flush, a
/// state left), so its evaluations and pushes never interleave; its
/// position is under a lock because commands read it from other threads.
final class Subscription: Sendable {
    let name: String
    let client: ServiceClient
    let root: Root
    let spec: SubscriptionSpec

    struct Progress: Sendable {
        /// Where the next evaluation starts: the subscribe's `since`, then
        /// the clock of the last evaluation.
        var since: ClockSpec?
        /// The `scm` half of `since` for a source-control-aware
        /// subscription: the subscribe's, then the last evaluation's.
        var scm: SCMClock?
        /// The root's tick at the last evaluation.
        var lastTick: UInt64 = 0
        var paused = false
        /// Its first result has gone out: settles evaluate it from now on.
        var started = false
        /// Removed (unsubscribed, cut off, its root gone, its client gone).
        var cancelled = false
    }

    let progress: Locked<Progress>

    init(name: String, client: ServiceClient, root: Root, spec: SubscriptionSpec) {
        self.name = name
        self.client = client
        self.root = root
        self.spec = spec
        progress = Locked(Progress(since: spec.query.since, scm: spec.query.scm))
    }

    var isCancelled: Bool { progress.withLock { $0.cancelled } }

    /// Runs the query from where the subscription got to and moves it to
    /// the clock the query ran at; the result PDU, or nil when there is
    /// nothing to send (no change matched, and no fresh instance). A query
    /// that fails leaves the position where it was.
    func evaluate(version: String, syncTimeout: Int64 = 0) throws(QueryError) -> WatchmanValue? {
        var query = spec.query
        let (since, scm) = progress.withLock { ($0.since, $0.scm) }
        query.since = since
        query.scm = scm
        query.syncTimeout = syncTimeout
        let evaluation = try root.evaluate(query)
        progress.withLock { progress in
            progress.since = .clock(.current, evaluation.position)
            progress.scm = evaluation.scm ?? progress.scm
            progress.lastTick = evaluation.position.tick
        }
        guard !evaluation.files.isEmpty || evaluation.isFreshInstance else { return nil }
        var members: [(key: String, value: WatchmanValue)] = [("version", .string(version))]
        if case .clock(let identity, let position)? = since {
            let clock = position.clockString(identity)
            members.append(("since", scm.map { $0.fatClock(clock) } ?? .string(clock)))
        }
        members += [
            ("is_fresh_instance", .bool(evaluation.isFreshInstance)),
            ("clock", evaluation.clock),
            ("files", .array(evaluation.files)),
            ("root", .bytes(root.path)),
            ("subscription", .string(name)),
            ("unilateral", true),
        ]
        if let warning = root.warnings { members.append(("warning", .string(warning))) }
        return .object(members)
    }

    /// Moves the position to `tick` without evaluating (a dropped state).
    func skip(to position: ClockPosition) {
        progress.withLock { progress in
            progress.since = .clock(.current, position)
            progress.lastTick = position.tick
        }
    }

    /// `evaluate`, at a settle: a failure is logged, and the next settle tries again.
    func evaluate(version: String, log: ServiceLog) -> WatchmanValue? {
        do {
            return try evaluate(version: version)
        } catch {
            log.log(.error, "error running subscription \(name) query: \(error)")
            return nil
        }
    }

    /// Where the subscription has got to on its root's clock.
    var position: ClockPosition {
        ClockPosition(rootNumber: root.number, tick: progress.withLock { $0.lastTick })
    }

    /// `position` as a reply gives it: a fat clock once a source-control-
    /// aware subscription knows its merge base (watchman's `subscribe` reply).
    var clock: WatchmanValue {
        let (tick, scm) = progress.withLock { ($0.lastTick, $0.scm) }
        let clock = ClockPosition(rootNumber: root.number, tick: tick).clockString()
        return scm.map { $0.fatClock(clock) } ?? .string(clock)
    }

    /// A state notice for this subscription: `state-enter` or
    /// `state-leave` with the clock, metadata and `abandoned` as given.
    func notice(_ members: [(key: String, value: WatchmanValue)], version: String) -> WatchmanValue {
        .object([("version", .string(version)), ("subscription", .string(name)), ("root", .bytes(root.path))] + members
            + [("unilateral", true)])
    }

    /// What tells the client this subscription is gone (its root was
    /// deleted, or it read too slowly): it must subscribe and query again.
    func cancellation(version: String) -> WatchmanValue {
        ["version": .string(version), "subscription": .string(name), "root": .bytes(root.path), "unilateral": true,
         "canceled": true]
    }
}
