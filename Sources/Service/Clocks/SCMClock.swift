import WatchmanProtocol

/// The source-control half of a fat clock (watchman's `scm-query.md`):
/// the revision a client compares against and the merge base of HEAD with
/// it when the clock was handed out.
///
///     "since": {"scm": {"mergebase-with": "main"}}                  // first query
///     "clock": {"clock": "c:…", "scm": {"mergebase": "f12345…", "mergebase-with": "main"}}
///
/// A query with one answers with the files changed since the merge base
/// when the merge base is not the one the client knows (its first query,
/// or after a rebase or a checkout), and as an ordinary `since` query of
/// the clock half otherwise; its reply's clock is a fat clock again.
struct SCMClock: Sendable, Equatable {
    /// The revision whose merge base with HEAD is asked, as the client names it.
    var mergebaseWith: String
    /// The merge base the client knows; empty when it knows none.
    var mergebase: String

    /// Splits a `since` value into its `scm` member, if any, and the rest
    /// (the clock half, for `ClockSpec`). Errors read as watchman's.
    static func split(since value: WatchmanValue) throws(QueryError) -> (scm: SCMClock?, clock: WatchmanValue) {
        guard case .object(let members) = value, let scm = value["scm"] else { return (nil, value) }
        guard case .object = scm else { throw .parse("'scm' must be an object") }
        guard let revision = scm["mergebase-with"] else {
            throw .parse("key 'mergebase-with' is not present in this json object")
        }
        guard let mergebaseWith = revision.text else { throw .parse("'mergebase-with' must be a string") }
        var mergebase = ""
        if let known = scm["mergebase"] {
            guard let text = known.text else { throw .parse("'mergebase' must be a string") }
            mergebase = text
        }
        return (SCMClock(mergebaseWith: mergebaseWith, mergebase: mergebase), .object(members.filter { $0.key != "scm" }))
    }

    /// The fat clock a reply carries: `clock` beside this.
    func fatClock(_ clock: String) -> WatchmanValue {
        .object([("clock", .string(clock)), ("scm", .object([("mergebase", .string(mergebase)), ("mergebase-with", .string(mergebaseWith))]))])
    }
}
