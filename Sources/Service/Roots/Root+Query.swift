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
}

extension Root {
    /// Runs a parsed query: syncs (unless `sync_timeout` is 0), takes a
    /// snapshot of the table and resolves `since` under the lock, then
    /// evaluates and renders outside it. The reply's members as watchman
    /// orders them: `clock`, `is_fresh_instance`, `files` (and `warning`).
    func query(_ spec: QuerySpec) throws(QueryError) -> [(key: String, value: WatchmanValue)] {
        touch()
        let evaluation = try evaluate(spec)
        var reply: [(key: String, value: WatchmanValue)] = [
            ("clock", .string(evaluation.position.clockString())),
            ("is_fresh_instance", .bool(evaluation.isFreshInstance)),
            ("files", .array(evaluation.files)),
        ]
        if let warning = warnings { reply.append(("warning", .string(warning))) }
        return reply
    }

    /// `query` without counting as a use of the root (subscriptions and
    /// triggers run it on each settle), giving the parts of the answer.
    func evaluate(_ spec: QuerySpec) throws(QueryError) -> Evaluation {
        if spec.syncTimeout > 0 {
            try sync(timeout: .milliseconds(spec.syncTimeout))
        } else if !waitUntilReady(timeout: .milliseconds(max(spec.lockTimeout, 1))) {
            throw QueryError("timed out waiting for the root's first crawl within \(spec.lockTimeout) milliseconds")
        }
        if let reason = unavailableReason { throw QueryError(reason) }
        let (table, basis) = state.withLock { state in
            (state.table, QueryEngine.basis(spec, table: state.table, rootNumber: number, cursors: &state.cursors))
        }
        let outcome = try QueryEngine(spec: spec, table: table, rootNumber: number).run(basis: basis)
        var base = path
        if let relative = spec.relativeRoot { base += [UInt8(ascii: "/")] + relative }
        let renderer = FieldRenderer(fields: spec.fields, position: outcome.position, basis: outcome.basis, times: table.times,
                                     base: base, hashes: hashes)
        return Evaluation(position: outcome.position, isFreshInstance: outcome.isFreshInstance,
                          files: renderer.render(outcome.matches), names: outcome.matches.map(\.name))
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
        let problem = state.withLock { $0.configurationProblem }
        let parts = [recrawlWarning, problem.map { "\($0); the configuration read before it is still used" }].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: "\n")
    }
}
