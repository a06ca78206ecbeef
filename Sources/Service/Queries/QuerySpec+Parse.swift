import WatchmanProtocol

extension QuerySpec {
    /// Parses a query object; `caseSensitive` is the root's default for
    /// `case_sensitive` (true on Linux). Errors read as watchman's.
    init(parsing query: WatchmanValue, caseSensitive rootCaseSensitive: Bool = true) throws(QueryError) {
        guard case .object = query else { throw .parse("query must be an object") }
        guard let caseSensitive = query.bool("case_sensitive", default: rootCaseSensitive) else {
            throw .parse("case_sensitive must be a boolean")
        }
        self.caseSensitive = caseSensitive
        syncTimeout = try Self.milliseconds(query, "sync_timeout")
        lockTimeout = try Self.milliseconds(query, "lock_timeout")
        guard let dedup = query.bool("dedup_results", default: false) else { throw .parse("dedup_results must be a boolean") }
        dedupResults = dedup
        guard let directories = query.bool("always_include_directories", default: false) else {
            throw .parse("always_include_directories must be a boolean")
        }
        alwaysIncludeDirectories = directories
        guard let empty = query.bool("empty_on_fresh_instance", default: false) else {
            throw .parse("empty_on_fresh_instance must be a boolean")
        }
        emptyOnFreshInstance = empty
        relativeRoot = try Self.relativeRoot(query)
        paths = try Self.paths(query)
        try parseGlobs(query)
        if let value = query["since"], value != .null {
            // A fat clock ({"clock": …, "scm": {"mergebase-with": …}}) gives both halves.
            let (scm, clock) = try SCMClock.split(since: value)
            guard let spec = try? ClockSpec(parsing: clock) else { throw .parse("invalid value for 'since'") }
            since = spec
            self.scm = scm
        }
        if let value = query["expression"] {
            expression = try QueryExpression(parsing: value, caseSensitive: caseSensitive)
        }
        if let value = query["request_id"] {
            guard let text = value.text else { throw .parse("'request_id' must be a string") }
            requestID = text
        }
        if let value = query["fields"] { fields = try FieldList(parsing: value) }
    }

    /// A non-negative integer of milliseconds (default 60 s).
    private static func milliseconds(_ query: WatchmanValue, _ key: String) throws(QueryError) -> Int64 {
        guard let value = query[key] else { return defaultSyncTimeout }
        guard case .int(let milliseconds) = value, milliseconds >= 0 else { throw .parse("\(key) must be an integer value >= 0") }
        return milliseconds
    }

    /// `relative_root`, canonical (`\` as `/`, no empty or `.` segment); nil for the root itself.
    private static func relativeRoot(_ query: WatchmanValue) throws(QueryError) -> [UInt8]? {
        guard let value = query["relative_root"] else { return nil }
        guard let bytes = value.stringBytes else { throw .parse("'relative_root' must be a string") }
        let canonical = canonicalPath(bytes)
        return canonical.isEmpty ? nil : canonical
    }

    /// A relative path with `\` read as `/`, and empty and `.` segments dropped.
    static func canonicalPath(_ bytes: [UInt8]) -> [UInt8] {
        let slash = UInt8(ascii: "/")
        let normalized = bytes.map { $0 == UInt8(ascii: "\\") ? slash : $0 }
        let segments = normalized.split(separator: slash).filter { !$0.elementsEqual([UInt8(ascii: ".")]) }
        return Array(segments.joined(separator: [slash]))
    }

    private static func paths(_ query: WatchmanValue) throws(QueryError) -> [PathGenerator]? {
        guard let value = query["path"] else { return nil }
        guard let elements = value.elements else { throw .parse("'path' must be an array") }
        var paths: [PathGenerator] = []
        for element in elements {
            if let bytes = element.stringBytes {
                paths.append(PathGenerator(path: canonicalPath(bytes), depth: nil))
            } else if case .object = element {
                guard let bytes = element["path"]?.stringBytes else { throw .parse("path.path must be a string") }
                guard case .int(let depth)? = element["depth"] else { throw .parse("path.depth must be an integer") }
                paths.append(PathGenerator(path: canonicalPath(bytes), depth: depth < 0 ? nil : depth))
            } else {
                throw .parse("expected object with 'path' and 'depth' properties")
            }
        }
        return paths
    }

    /// The `glob` and `suffix` generators, both as wildmatch patterns over
    /// the name relative to the relative root; both imply `dedup_results`.
    private mutating func parseGlobs(_ query: WatchmanValue) throws(QueryError) {
        if let value = query["glob"] {
            guard let elements = value.elements else { throw .parse("'glob' must be an array") }
            guard let noEscape = query.bool("glob_noescape", default: false) else { throw .parse("glob_noescape must be a boolean") }
            guard let dotFiles = query.bool("glob_includedotfiles", default: false) else {
                throw .parse("glob_includedotfiles must be a boolean")
            }
            var globs: [Wildmatch] = []
            for element in elements {
                guard let pattern = element.stringBytes else { throw QueryError("expected json string object") }
                if pattern.first == UInt8(ascii: "/") {
                    throw .parse("glob `\(String(decoding: pattern, as: UTF8.self))` is an absolute path.  All globs must be relative paths!")
                }
                globs.append(Wildmatch(pattern, wholename: true, caseFold: !caseSensitive, includeDotFiles: dotFiles, noEscape: noEscape))
            }
            self.globs = globs
            dedupResults = true
        }
        if let value = query["suffix"] {
            let problem = QueryError.parse("'suffix' must be a string or an array of strings")
            let suffixes: [WatchmanValue]
            if value.isString { suffixes = [value] } else if let elements = value.elements { suffixes = elements } else { throw problem }
            guard query["glob"] == nil else { throw .parse("'suffix' cannot be used together with the 'glob' generator") }
            var globs: [Wildmatch] = []
            for suffix in suffixes {
                guard let bytes = suffix.stringBytes else { throw problem }
                globs.append(Wildmatch(Array("**/*.".utf8) + bytes, wholename: true, caseFold: true, includeDotFiles: true, noEscape: false))
            }
            self.globs = globs
            dedupResults = true
        }
    }
}
