import Dispatch
import Glibc
import Signals
import Synchronization
import SystemPackage
import WatchSources
import WatchmanProtocol

/// Every watched root of the service, by canonical path: what `watch`,
/// `watch-project`, `watch-list` and `watch-del` change, and what every
/// other root command looks its root up in. Each root is watched once,
/// however many clients ask.
final class RootTable: Sendable {
    private let roots = Locked<[[UInt8]: Root]>([:])
    private let numbers = Atomic<UInt64>(1)
    private let environment: [String: String]
    /// The global configuration file, read once when first needed.
    private let global = Locked<Result<(WatchmanValue, String), RootConfiguration.Problem>?>(nil)

    private let housekeeping = Locked<HousekeepingTimer?>(nil)

    /// The housekeeping timer, as a value a lock box may hold.
    private struct HousekeepingTimer: @unchecked Sendable {
        // Safety: a Dispatch source is thread-safe; this one is scheduled
        // before it is stored, and then only cancelled.
        let source: any DispatchSourceTimer
    }

    init(environment: [String: String]) {
        self.environment = environment
    }

    /// Every `interval`, ages out each root's deleted entries when due and
    /// lets go of roots idle past their `idle_reap_age_seconds`.
    func startHousekeeping(every interval: Duration = .seconds(10)) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "rwatch-roots-housekeeping"))
        let nanoseconds = Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
        timer.setEventHandler { [weak self] in self?.housekeep() }
        let previous = housekeeping.withLock { current -> HousekeepingTimer? in
            defer { current = HousekeepingTimer(source: timer) }
            return current
        }
        previous?.source.cancel()
        timer.resume()
    }

    func stopHousekeeping() {
        housekeeping.withLock { timer in
            timer?.source.cancel()
            timer = nil
        }
    }

    private func housekeep() {
        let now = Int64(time(nil))
        for root in all where root.housekeep(now: now) { delete(root) }
    }

    /// The configuration every root starts from (no `.watchmanconfig`).
    func globalConfiguration() throws(QueryError) -> RootConfiguration {
        let loaded = global.withLock { loaded in
            if let loaded { return loaded }
            let read = ConfigurationFiles.global(environment: environment)
            loaded = read
            return read
        }
        switch loaded {
        case .success(let (value, path)): return RootConfiguration(global: value, globalPath: path)
        case .failure(let problem): throw QueryError(problem.description)
        }
    }

    /// Every root, sorted by path.
    var all: [Root] {
        roots.withLock { Array($0.values) }.sorted { $0.path.lexicographicallyPrecedes($1.path) }
    }

    /// The watched root at `argument` (an absolute path naming it, resolved
    /// through symlinks); watchman's errors otherwise.
    func resolve(_ argument: [UInt8]) throws(QueryError) -> Root {
        let (literal, resolved) = try Self.canonical(argument)
        let found = roots.withLock { $0[resolved ?? literal] ?? $0[literal] }
        guard let root = found else {
            guard resolved != nil else { throw Self.unresolved(literal, "realpath(\(Self.text(literal))) -> \(String(cString: strerror(ENOENT)))") }
            throw Self.unresolved(literal, "directory \(Self.text(resolved!)) is not watched")
        }
        if let reason = root.unavailableReason { throw QueryError(reason) }
        return root
    }

    /// The live root whose path is `argument` as given (trailing slashes
    /// aside), found without `realpath` or any other file-system call (for
    /// the socket loop); nil otherwise, for `resolve` to decide. Differs
    /// from `resolve` only if a directory on the way to a watched root was
    /// since replaced by a symbolic link.
    func watchedAsGiven(_ argument: [UInt8]) -> Root? {
        var literal = argument
        while literal.count > 1, literal.last == UInt8(ascii: "/") { literal.removeLast() }
        guard literal.first == UInt8(ascii: "/"), let root = roots.withLock({ $0[literal] }), root.path == literal,
              root.unavailableReason == nil else { return nil }
        return root
    }

    /// Watches the directory at `argument` (if not already) and waits for
    /// its first crawl. `enforce` applies `enforce_root_files` (for `watch`).
    /// Without `mayCreate` (a client that is not the owner), only a root
    /// already watched is answered.
    func watch(_ argument: [UInt8], enforceRootFiles enforce: Bool = true, mayCreate: Bool = true) throws(QueryError) -> Root {
        let (literal, resolved) = try Self.canonical(argument)
        guard let path = resolved else {
            throw Self.unresolved(literal, "realpath(\(Self.text(literal))) -> \(String(cString: strerror(errno)))")
        }
        if let existing = roots.withLock({ $0[path] }), existing.isLive {
            existing.touch()
            return try ready(existing)
        }
        guard mayCreate else {
            throw QueryError(CommandError.notOwner("add a watch: \(Self.text(path)) is not watched").message)
        }
        var configuration = try globalConfiguration()
        let (names, enforced) = configuration.rootFiles
        if enforce, enforced, !names.contains(where: { FileStat.of(Cookies.cPath(path + [UInt8(ascii: "/")] + Array($0.utf8))) != nil }) {
            throw Self.unresolved(literal, Self.restricted(path, configuration))
        }
        guard let stat = FileStat.of(Cookies.cPath(path)) else {
            throw Self.unresolved(literal, "unable to lstat \"\(Self.text(path))\" \(String(cString: strerror(errno)))")
        }
        guard stat.type == .directory else { throw Self.unresolved(literal, "\(Self.text(path)) is not a directory") }
        // A directory it may not list is no root: said as watchman says it.
        let listable = open(Cookies.cPath(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard listable >= 0 else { throw Self.unresolved(literal, "opendir(\(Self.text(path))) -> \(String(cString: strerror(errno)))") }
        close(listable)
        try Self.checkFileSystem(path, literal, configuration)
        switch ConfigurationFiles.local(root: path) {
        case .success(let local): configuration.local = local
        case .failure(let problem): throw Self.unresolved(literal, problem.description)
        }
        do { try configuration.validate() } catch { throw Self.unresolved(literal, "\(error)") }
        let root = install(path, configuration, stat)
        return try ready(root)
    }

    /// Registers a new root at `path` unless another thread just did.
    private func install(_ path: [UInt8], _ configuration: RootConfiguration, _ stat: FileStat) -> Root {
        let number = numbers.wrappingAdd(1, ordering: .relaxed).oldValue
        let candidate = Root(path: path, number: number, configuration: configuration, rootStat: stat) { [weak self] failed in
            self?.forget(failed)
        }
        let (root, created) = roots.withLock { roots -> (Root, Bool) in
            if let existing = roots[path], existing.isLive { return (existing, false) }
            roots[path] = candidate
            return (candidate, true)
        }
        if created { root.start() }
        return root
    }

    /// Waits for `root`'s first crawl; its failure as the error.
    private func ready(_ root: Root) throws(QueryError) -> Root {
        _ = root.waitUntilReady(timeout: .seconds(3600))
        if let reason = root.unavailableReason { throw QueryError(reason) }
        return root
    }

    /// Stops watching `root`; false when it was not watched.
    @discardableResult
    func delete(_ root: Root) -> Bool {
        let removed = roots.withLock { roots -> Bool in
            guard roots[root.path] === root else { return false }
            roots[root.path] = nil
            return true
        }
        root.cancel()
        return removed
    }

    /// Stops watching every root; returns their paths.
    func deleteAll() -> [[UInt8]] {
        let removed = roots.withLock { roots -> [Root] in
            defer { roots = [:] }
            return Array(roots.values)
        }
        for root in removed { root.cancel() }
        return removed.map(\.path).sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// A root that failed by itself leaves the table.
    private func forget(_ root: Root) {
        roots.withLock { roots in
            if roots[root.path] === root { roots[root.path] = nil }
        }
    }

    /// The watched root holding `path` (itself or an ancestor), deepest first.
    func enclosing(_ path: [UInt8]) -> (Root, relative: [UInt8])? {
        let candidates = roots.withLock { Array($0.values) }.filter(\.isLive)
        return candidates.compactMap { root in ChangePlan.relative(path, to: root.path).map { (root, $0) } }
            .max { $0.0.path.count < $1.0.path.count }
    }

    // MARK: Paths

    /// The argument as given (must be absolute, not `/`) and its `realpath` (nil when that fails).
    static func canonical(_ argument: [UInt8]) throws(QueryError) -> (literal: [UInt8], resolved: [UInt8]?) {
        guard argument.first == UInt8(ascii: "/") else { throw unresolved(argument, "path \"\(text(argument))\" must be absolute") }
        guard argument.contains(where: { $0 != UInt8(ascii: "/") }) else { throw unresolved(argument, "cannot watch \"/\"") }
        var literal = argument
        while literal.count > 1, literal.last == UInt8(ascii: "/") { literal.removeLast() }
        guard let resolved = realpath(Cookies.cPath(literal), nil) else { return (literal, nil) }
        defer { free(resolved) }
        let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self), count: strlen(resolved)))
        guard bytes != [UInt8(ascii: "/")] else { throw unresolved(argument, "cannot watch \"/\"") }
        return (literal, bytes)
    }

    /// Refuses a root on a file system type the global `illegal_fstypes` lists.
    private static func checkFileSystem(_ path: [UInt8], _ literal: [UInt8], _ configuration: RootConfiguration) throws(QueryError) {
        guard let illegal = configuration.global["illegal_fstypes"]?.elements?.compactMap(\.text), !illegal.isEmpty else { return }
        let type = MountTable.fileSystemType(of: FilePath(bytes: path)) ?? "unknown"
        guard illegal.contains(type) else { return }
        let advice = configuration.global["illegal_fstypes_advice"]?.text ?? "relocate the dir to an allowed filesystem type"
        throw unresolved(literal, "path uses the \"\(type)\" filesystem and is disallowed by global config illegal_fstypes: \(advice)")
    }

    static func unresolved(_ path: [UInt8], _ detail: String) -> QueryError {
        QueryError("unable to resolve root \(text(path)): \(detail)")
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    private static func restricted(_ path: [UInt8], _ configuration: RootConfiguration) -> String {
        "Your watchman administrator has configured watchman to prevent watching path `\(text(path))`.  "
            + "None of the files listed in global config root_files are present and enforce_root_files is set to true.  "
            + "root_files is defined by the `\(configuration.globalPath)` config file and includes \(configuration.rootFilesText).  "
            + "One or more of these files must be present in order to allow a watch.  "
            + "Try pulling and checking out a newer version of the project?"
    }
}
