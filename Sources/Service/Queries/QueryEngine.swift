import Glibc

/// A file a query kept: what the table said of it when the query ran, and
/// its name relative to the query's relative root.
struct QueryMatch: Sendable {
    var entry: FileEntry
    /// Its `lstat` fields, whole.
    var details: FileStat
    var name: [UInt8]
}

/// What running a query against a table gives, before its fields are rendered.
struct QueryOutcome: Sendable {
    var position: ClockPosition
    var basis: SinceBasis
    var matches: [QueryMatch]
    var isFreshInstance: Bool { basis.isFresh }
}

/// Runs a parsed query against a root's table (held under the root's
/// lock for the call): resolves `since` (moving a named cursor), runs the
/// generators, keeps the files under the relative root that the
/// expression accepts, and copies what rendering needs.
struct QueryEngine {
    let spec: QuerySpec
    let table: FileTable
    let rootNumber: UInt64

    func run(cursors: inout [String: UInt64]) throws(QueryError) -> QueryOutcome {
        try run(basis: Self.basis(spec, table: table, rootNumber: rootNumber, cursors: &cursors))
    }

    /// What the query's `since` means now (a named cursor moves to now);
    /// fresh when it has none. Taken under the root's lock.
    static func basis(_ spec: QuerySpec, table: FileTable, rootNumber: UInt64, cursors: inout [String: UInt64]) -> SinceBasis {
        let position = ClockPosition(rootNumber: rootNumber, tick: UInt64(table.tick))
        return spec.since?.basis(at: position, lastAgeOut: UInt64(table.lastAgeOut), cursors: &cursors) ?? .fresh
    }

    /// Runs the query against `table` (a snapshot: no lock needed).
    /// `sourceControl`, the names (relative to the root) source control
    /// says changed since a new merge base, replaces every generator, as
    /// watchman's: deleted names count too, fresh instance or not.
    func run(basis: SinceBasis, sourceControl: [[UInt8]]? = nil) throws(QueryError) -> QueryOutcome {
        let position = ClockPosition(rootNumber: rootNumber, tick: UInt64(table.tick))
        var outcome = QueryOutcome(position: position, basis: basis, matches: [])
        if basis.isFresh, spec.emptyOnFreshInstance { return outcome }
        if let names = sourceControl {
            var run = Run(engine: self, context: EvaluationContext(position: position, lastAgeOut: UInt64(table.lastAgeOut), times: table.times),
                          fresh: false)
            for name in names { run.consider(named: name) }
            outcome.matches = run.matches
            return outcome
        }
        var run = Run(engine: self, context: EvaluationContext(position: position, lastAgeOut: UInt64(table.lastAgeOut), times: table.times),
                      fresh: basis.isFresh)
        var generated = false
        if !basis.isFresh {
            generateSince(basis, &run)
            generated = true
        }
        if let paths = spec.paths {
            for path in paths { generatePath(path, &run) }
            generated = true
        }
        if let globs = spec.globs {
            try generateGlobs(globs, &run)
            generated = true
        }
        if !generated {
            for id in 1..<table.idLimit where table.isLive(id) { run.consider(id) }
        }
        outcome.matches = run.matches
        return outcome
    }

    /// Files changed after the basis, newest first.
    private func generateSince(_ basis: SinceBasis, _ run: inout Run) {
        switch basis {
        case .tick(let since) where table.log.covers(since: since):
            table.log.forEachChanged(after: since, oclock: { table[$0].oclock }) { id in
                if table.isLive(id) { run.consider(id) }
            }
        case .tick(let since):
            for id in 1..<table.idLimit where table.isLive(id) && UInt64(table[id].oclock) > since { run.consider(id) }
        case .timestamp(let seconds):
            for id in 1..<table.idLimit where table.isLive(id) && table.times.time(of: table[id].oclock) > seconds {
                run.consider(id)
            }
        case .fresh:
            break
        }
    }

    /// A file named by a `path` entry, or what lies below a directory, to its depth.
    private func generatePath(_ generator: QuerySpec.PathGenerator, _ run: inout Run) {
        var full = spec.relativeRoot ?? []
        if !generator.path.isEmpty {
            if !full.isEmpty { full.append(UInt8(ascii: "/")) }
            full += generator.path
        }
        guard let id = full.withUnsafeBufferPointer({ table.lookup(path: $0) }) else { return }
        let entry = table[id]
        if id != 0, !(entry.exists && entry.isDirectory) {
            run.consider(id)
            return
        }
        var levels: [Int32: Int64?] = [:]
        for candidate in 1..<table.idLimit where table.isLive(candidate) {
            guard let level = level(of: table[candidate].parent, below: id, &levels) else { continue }
            if generator.depth.map({ level <= $0 }) ?? true { run.consider(candidate) }
        }
    }

    /// How many directories lie between `top` and `directory`'s children
    /// (0 for `top` itself); nil when `directory` is not `top` or below it.
    private func level(of directory: Int32, below top: Int32, _ memo: inout [Int32: Int64?]) -> Int64? {
        if directory == top { return 0 }
        if directory <= 0 { return nil }
        if let known = memo[directory] { return known }
        let level = level(of: table[directory].parent, below: top, &memo).map { $0 + 1 }
        memo[directory] = level
        return level
    }

    private func generateGlobs(_ globs: [Wildmatch], _ run: inout Run) throws(QueryError) {
        if let relativeRoot = spec.relativeRoot {
            let id = relativeRoot.withUnsafeBufferPointer { table.lookup(path: $0) }
            guard let id, table[id].exists, table[id].isDirectory else {
                throw QueryError("glob_generator could not resolve \(String(decoding: relativeRoot, as: UTF8.self)), check your relative_root parameter!")
            }
        }
        for id in 1..<table.idLimit where table.isLive(id) {
            run.consider(id) { name in globs.contains { $0.matches(name) } }
        }
    }
}

/// One run of a query: the candidates the generators name go through
/// `consider`, which keeps those the query reports.
struct Run {
    let engine: QueryEngine
    let context: EvaluationContext
    /// A fresh instance reports only files that exist.
    let fresh: Bool
    var paths = PathBuilder()
    var seen: Set<[UInt8]> = []
    var matches: [QueryMatch] = []

    init(engine: QueryEngine, context: EvaluationContext, fresh: Bool) {
        self.engine = engine
        self.context = context
        self.fresh = fresh
    }

    /// Keeps `id` when it exists (or the instance is not fresh), lies
    /// below the relative root, passes `extra` and the expression, and
    /// (with `dedup_results`) was not kept already.
    mutating func consider(_ id: Int32, where extra: (UnsafeBufferPointer<UInt8>) -> Bool = { _ in true }) {
        let table = engine.table
        let entry = table[id]
        if id == 0 || fresh && !entry.exists { return }
        consider(entry, details: table.details(of: entry), name: paths.path(of: id, in: table), where: extra)
    }

    /// Considers the file `name` (relative to the root) names: its entry,
    /// or, when the table never saw it (deleted before the watch began), a
    /// deleted regular file, as watchman reports a name from source control.
    mutating func consider(named name: [UInt8]) {
        if let id = name.withUnsafeBufferPointer({ engine.table.lookup(path: $0) }) {
            if id != 0 { consider(id) }
            return
        }
        var entry = FileEntry()
        entry.mode = UInt16(S_IFREG)
        consider(entry, details: FileStat(mode: UInt32(S_IFREG), nlink: 0), name: name, where: { _ in true })
    }

    private mutating func consider(_ entry: FileEntry, details: FileStat, name: [UInt8],
                                   where extra: (UnsafeBufferPointer<UInt8>) -> Bool) {
        var name = name
        if let relativeRoot = engine.spec.relativeRoot {
            guard name.count > relativeRoot.count, name[relativeRoot.count] == UInt8(ascii: "/"),
                  name.starts(with: relativeRoot) else { return }
            name.removeFirst(relativeRoot.count + 1)
        }
        let keep = name.withUnsafeBufferPointer { bytes in
            extra(bytes) && (engine.spec.expression?.matches(FileView(entry: entry, size: details.size, wholename: bytes), context) ?? true)
        }
        guard keep else { return }
        if engine.spec.dedupResults, !seen.insert(name).inserted { return }
        matches.append(QueryMatch(entry: entry, details: details, name: name))
    }
}
