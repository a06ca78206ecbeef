import WatchmanProtocol

/// A `query` command's second argument, parsed: which files to generate,
/// which to keep, what to report of them, and how long to wait.
///
/// Generators (`docs/file-query.md`): `since` (when it is not a fresh
/// instance), `path`, and `glob` (the `suffix` generator is a glob
/// `**/*.SUFFIX`, case-insensitive, dot files included); each that is
/// given contributes its files, and with none every file is a candidate.
struct QuerySpec: Sendable {
    /// One entry of the `path` generator.
    struct PathGenerator: Sendable, Equatable {
        var path: [UInt8]
        /// How many directory levels below it; nil is unlimited (`-1`).
        var depth: Int64?
    }

    var expression: QueryExpression?
    var since: ClockSpec?
    /// The source-control half of a fat-clock `since`: the query is
    /// source-control aware (`Root+SCM.swift`).
    var scm: SCMClock?
    var paths: [PathGenerator]?
    var globs: [Wildmatch]?
    var relativeRoot: [UInt8]?
    var fields = FieldList.standard
    var emptyOnFreshInstance = false
    var dedupResults = false
    /// `always_include_directories` (Buck2 sends it): watchman's answer to
    /// EdenFS, whose journal can leave directories out of a `since` query
    /// across a commit change. Here every directory change is in the table's
    /// log, so directories are always reported and the flag changes nothing;
    /// it is kept, checked as watchman checks it, for what a client sends.
    var alwaysIncludeDirectories = false
    var caseSensitive = true
    /// Milliseconds to wait for the cookie; 0 answers from the table as it is.
    var syncTimeout: Int64 = QuerySpec.defaultSyncTimeout
    var lockTimeout: Int64 = QuerySpec.defaultSyncTimeout
    var requestID: String?

    /// watchman's default wait for a cookie and for the table: 60 s.
    static let defaultSyncTimeout: Int64 = 60_000
}
