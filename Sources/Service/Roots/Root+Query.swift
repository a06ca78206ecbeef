import Dispatch
import WatchmanProtocol

/// One run of a query against a root, rendered: what a `query` reply, a
/// subscription's PDU and a trigger's run are made of.
struct Evaluation: Sendable {
    /// The clock when the query ran: the `since` of the next run.
    var position: ClockPosition
    var isFreshInstance: Bool
    /// Each match as the query's fields render it.
    var files: [WatchmanValue]
    /// Each match's name, relative to the query's relative root.
    var names: [[UInt8]]
    /// The `scm` half of the fat clock, for a source-control-aware query.
    var scm: SCMClock? = nil

    /// The clock a reply gives: a fat clock for a source-control-aware query.
    var clock: WatchmanValue {
        let clock = position.clockString()
        return scm.map { $0.fatClock(clock) } ?? .string(clock)
    }
}

extension Root {
    /// Runs a parsed query: syncs (unless `sync_timeout` is 0), takes a
    /// snapshot of the table and resolves `since` under the lock, then
    /// evaluates and renders outside it. The reply's members as watchman
    /// orders them: `clock`, `is_fresh_instance`, `files` (and `warning`).
    func query(_ spec: QuerySpec) throws(QueryError) -> [(key: String, value: WatchmanValue)] {
        touch()
        return reply(try evaluate(spec))
    }

    /// A `query` reply's members for `evaluation`.
    private func reply(_ evaluation: Evaluation) -> [(key: String, value: WatchmanValue)] {
        var reply: [(key: String, value: WatchmanValue)] = [
            ("clock", evaluation.clock),
            ("is_fresh_instance", .bool(evaluation.isFreshInstance)),
            ("files", .array(evaluation.files)),
        ]
        if let warning = warnings { reply.append(("warning", .string(warning))) }
        return reply
    }

    /// `query` answered on the caller's thread without waiting and in
    /// little time (for the socket loop), or nil when it cannot be: only
    /// a `since` of this root's clock with no other generator, at most
    /// `answeredWithoutWaitingLimit` changes after it, no content hashes
    /// to read, and a sync that needs no wait (`syncWithoutWaiting`).
    /// Nil has at most moved the clock (as any sync does).
    func queryWithoutWaiting(_ spec: QuerySpec) throws(QueryError) -> [(key: String, value: WatchmanValue)]? {
        guard case .clock = spec.since, spec.scm == nil, spec.paths == nil, spec.globs == nil, !spec.fields.needsHashes else { return nil }
        if spec.syncTimeout > 0 {
            guard syncWithoutWaiting() else { return nil }
        } else {
            guard phase == .ready else { return nil }
        }
        if let reason = unavailableReason { throw QueryError(reason) }
        let limit = Self.answeredWithoutWaitingLimit
        let snapshot = state.withLock { state -> (FileTable, SinceBasis)? in
            var cursors: [String: UInt64] = [:]  // a clock moves no cursor
            let basis = QueryEngine.basis(spec, table: state.table, rootNumber: number, cursors: &cursors)
            guard case .tick(let since) = basis, state.table.log.covers(since: since),
                  state.table.log.records(after: since, upTo: limit) <= limit else { return nil }
            return (state.table, basis)
        }
        guard let (table, basis) = snapshot else { return nil }
        touch()
        return reply(try evaluate(spec, table: table, basis: basis))
    }

    /// The most changes a query answered without waiting may look at.
    static let answeredWithoutWaitingLimit = 256

    /// `clock` without waiting (for the socket loop): nil when its sync
    /// would wait (`syncWithoutWaiting`).
    func clockWithoutWaiting(syncTimeout: Duration) throws(QueryError) -> String? {
        if syncTimeout > .zero {
            guard syncWithoutWaiting() else { return nil }
        }
        touch()
        if let reason = unavailableReason { throw QueryError(reason) }
        return position.clockString()
    }

    /// `query` without counting as a use of the root (subscriptions and
    /// triggers run it on each settle), giving the parts of the answer.
    /// Source control is asked before the sync, as watchman does: git may
    /// touch files below the root, which the sync then takes in.
    func evaluate(_ spec: QuerySpec) throws(QueryError) -> Evaluation {
        let scm = try spec.scm.map { since throws(QueryError) in try sourceControlAnswer(since) }
        if spec.syncTimeout > 0 {
            try sync(timeout: .milliseconds(spec.syncTimeout))
        } else if !waitUntilReady(timeout: .milliseconds(max(spec.lockTimeout, 1))) {
            throw QueryError("timed out waiting for the root's first crawl within \(spec.lockTimeout) milliseconds")
        }
        if let reason = unavailableReason { throw QueryError(reason) }
        let (table, basis) = state.withLock { state in
            (state.table, QueryEngine.basis(spec, table: state.table, rootNumber: number, cursors: &state.cursors))
        }
        return try evaluate(spec, table: table, basis: basis, scm: scm)
    }

    /// Runs `spec` on `table` (a snapshot) from `basis`, and renders it.
    private func evaluate(_ spec: QuerySpec, table: FileTable, basis: SinceBasis, scm: SCMAnswer? = nil) throws(QueryError) -> Evaluation {
        let outcome = try QueryEngine(spec: spec, table: table, rootNumber: number).run(basis: basis, sourceControl: scm?.changed)
        var base = path
        if let relative = spec.relativeRoot { base += [UInt8(ascii: "/")] + relative }
        let renderer = FieldRenderer(fields: spec.fields, position: outcome.position, basis: outcome.basis, times: table.times,
                                     base: base, hashes: hashes)
        return Evaluation(position: outcome.position, isFreshInstance: outcome.isFreshInstance,
                          files: renderer.render(outcome.matches), names: outcome.matches.map(\.name), scm: scm?.clock)
    }

    /// The current clock, after a sync when `syncTimeout` is positive.
    func clock(syncTimeout: Duration) throws(QueryError) -> String {
        touch()
        if syncTimeout > .zero { try sync(timeout: syncTimeout) }
        if let reason = unavailableReason { throw QueryError(reason) }
        return position.clockString()
    }

    /// Where the root's clock is now.
    var position: ClockPosition {
        state.withLock { ClockPosition(rootNumber: number, tick: UInt64($0.table.tick)) }
    }

    /// What replies about this root warn of: a recrawl, a damaged `.watchmanconfig`.
    var warnings: String? {
        let (problem, unlistable) = state.withLock { ($0.configurationProblem, $0.unlistable) }
        let parts = [recrawlWarning, problem.map { "\($0); the configuration read before it is still used" }].compactMap { $0 }
            + unlistable.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.value)
        return parts.isEmpty ? nil : parts.joined(separator: "\n")
    }
}
