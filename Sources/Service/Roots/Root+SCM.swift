/// What source control says for one source-control-aware query: the fat
/// clock's `scm` half for the reply, and the names changed since the merge
/// base when the client did not know it (nil: answer as an ordinary
/// `since` query of the clock half).
struct SCMAnswer: Sendable {
    var clock: SCMClock
    var changed: [[UInt8]]?
}

extension Root {
    /// Asks the root's git working copy for the merge base of HEAD with
    /// `since.mergebaseWith`, and, when it is not `since.mergebase`, for
    /// the files changed since it (`GitWorkingCopy.changedFiles`). A root
    /// in no git working copy has watchman's error.
    func sourceControlAnswer(_ since: SCMClock) throws(QueryError) -> SCMAnswer {
        guard let git = GitWorkingCopy.containing(path) else { throw QueryError("This root does not support SCM-aware queries.") }
        let mergebase = try git.mergeBase(with: since.mergebaseWith)
        let clock = SCMClock(mergebaseWith: since.mergebaseWith, mergebase: mergebase)
        guard mergebase != since.mergebase else { return SCMAnswer(clock: clock, changed: nil) }
        return SCMAnswer(clock: clock, changed: try git.changedFiles(since: mergebase))
    }
}
