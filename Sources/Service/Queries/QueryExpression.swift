/// A query's expression, parsed (`QueryExpression(parsing:caseSensitive:)`):
/// what a file must be to be reported. Terms are watchman's
/// (`docs/expr/*.md`); names are matched as bytes, relative to the query's
/// relative root.
indirect enum QueryExpression: Sendable {
    case constant(Bool)
    case allOf([QueryExpression])
    case anyOf([QueryExpression])
    case not(QueryExpression)
    case exists
    /// Exists, is a regular file or a directory, and has size 0.
    case empty
    /// nil: a type no file here can have (`D`, a Solaris door).
    case type(FileType?)
    /// The part after the basename's last `.`, compared in ASCII lower case.
    case suffix([[UInt8]])
    case size(IntComparison)
    case match(Wildmatch, wholename: Bool)
    /// Exact names; with `caseFold` the set holds them in ASCII lower case.
    case name(Set<[UInt8]>, wholename: Bool, caseFold: Bool)
    /// Files below a directory (`""` is the root), at a depth.
    case dirname([UInt8], depth: IntComparison, caseFold: Bool)
    case since(SinceTerm)
    case pcre(Regex, wholename: Bool)
}

/// The `since` term: a clock or time, and which of the file's clocks or
/// times is compared with it.
struct SinceTerm: Sendable {
    enum Field: String, Sendable, CaseIterable {
        case oclock, cclock, mtime, ctime
    }

    var spec: ClockSpec
    var field: Field
}

/// One candidate file as the terms see it: its table entry and its name
/// relative to the query's relative root.
struct FileView {
    var entry: FileEntry
    /// Its size (the entry keeps part of it; the table has the rest).
    var size: Int64
    var wholename: UnsafeBufferPointer<UInt8>

    /// The last segment of the name.
    var basename: UnsafeBufferPointer<UInt8> {
        var start = wholename.count
        while start > 0, wholename[start - 1] != UInt8(ascii: "/") { start -= 1 }
        return UnsafeBufferPointer(rebasing: wholename[start...])
    }
}

/// What the terms need besides the file: the root's clock at the start of
/// the query (for `since` terms) and when its ticks happened.
struct EvaluationContext {
    var position: ClockPosition
    var lastAgeOut: UInt64
    var times: TickTimes
}
