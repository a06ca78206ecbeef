import Dispatch
import Glibc
import Signals
import WatchSources

extension Root {
    /// Walks the directory entry `id` at `relative` and everything below
    /// it, recording what is there: each directory is listed and its
    /// entries `lstat`ed outside the lock, then applied under it in one
    /// tick. With `threads` above one, that many threads list directories
    /// side by side (a crawl spends its time in `lstat`, which cores share
    /// out well); the table is still written one directory at a time.
    /// Returns the ids of the directories walked.
    @discardableResult
    func walk(from id: Int32, _ relative: [UInt8], threads: Int = 1) -> Set<Int32> {
        let polled = machine.withLock { $0.polled }
        let (shape, cookieDirectories) = state.withLock { ($0.shape, Self.cookieDirectories(of: $0, polled: polled)) }
        let queue = Locked(WalkQueue(pending: [(id, relative)]))
        let work = { @Sendable in
            while let directory = WalkQueue.take(queue) {
                let below = self.walkOne(directory, shape: shape, cookieDirectories: cookieDirectories)
                queue.withLock { $0.done(directory.id, below: below) }
            }
        }
        if threads > 1 {
            DispatchQueue.concurrentPerform(iterations: threads) { _ in work() }
        } else {
            work()
        }
        return queue.withLock { $0.walked }
    }

    /// Lists one directory and records what it holds; returns the
    /// directories found in it to walk next.
    private func walkOne(_ directory: (id: Int32, relative: [UInt8]), shape: WatchShape,
                         cookieDirectories: Set<[UInt8]>) -> [(id: Int32, relative: [UInt8])] {
        guard isLive else { return [] }
        let cookies = cookieDirectories.contains(directory.relative)
        let keep = { (name: UnsafeBufferPointer<UInt8>) in
            shape.counts(name, in: directory.relative) && !(cookies && Cookies.serial(name) != nil)
        }
        guard let listing = DirectoryListing.read(absolute(directory.relative), keep: keep) else {
            noteUnlistable(directory.relative, errno: errno)
            return []
        }
        let descends = !shape.isInsideVCS(directory.relative)
        var below: [(id: Int32, relative: [UInt8])] = []
        state.withLock { state in
            state.unlistable[directory.relative] = nil
            state.table.advance(now: Int64(time(nil)))
            for entry in listing.entries {
                listing.withName(entry) { name in
                    let child = state.table.record(parent: directory.id, name: name, entry.stat).id
                    if descends, entry.stat.type == .directory { below.append((child, WatchShape.join(directory.relative, name))) }
                }
            }
        }
        return below
    }

    /// Remembers why the directory at `relative` could not be listed,
    /// unless it is simply gone (a deletion, which the table records).
    private func noteUnlistable(_ relative: [UInt8], errno code: Int32) {
        guard code != ENOENT, code != ENOTDIR, code != ELOOP else { return }
        let shown = String(decoding: absolute(relative), as: UTF8.self)
        let reason = "opendir(\(shown)) -> \(String(cString: strerror(code))). Marking this portion of the tree deleted"
        state.withLock { $0.unlistable[relative] = reason }
    }

    /// Crawls the whole tree again, marking what it no longer finds
    /// deleted: after a queue overflow (changes were lost) or when the
    /// configuration changed what is counted. Clocks from before stay
    /// valid: the crawl finds every difference (as watchman's recrawl);
    /// replies carry a warning saying it happened.
    func recrawl(because reason: String) {
        state.withLock { $0.table.clearSeen() }
        machine.withLock { $0.recrawlStarted(because: reason, now: .now) }
        let rootStat = FileStat.of(Cookies.cPath(path))
        let walked = walk(from: 0, [], threads: Root.crawlThreads)
        state.withLock { state in
            state.table.advance(now: Int64(time(nil)))
            if let rootStat { state.table.recordRoot(rootStat) }
            state.table.finishCrawl(walked)
        }
        machine.withLock { $0.recrawlEnded(now: .now) }
    }

    /// Crawls again on the worker, after what is queued (`debug-recrawl`).
    func requestRecrawl(because reason: String) {
        let done = DispatchSemaphore(value: 0)
        worker.async { [self] in
            writingOnWorker { if isLive { recrawl(because: reason) } }
            let (tick, exhausted) = state.withLock { ($0.table.tick, $0.table.isExhausted) }
            decide { $0.applied(tick: tick, exhausted: exhausted) }
            done.signal()
        }
        done.wait()
    }

    /// The warning replies carry after a recrawl (watchman's wording),
    /// unless `suppress_recrawl_warnings` is set.
    var recrawlWarning: String? {
        let (recrawls, reason) = machine.withLock { ($0.recrawls, $0.recrawlReason) }
        guard recrawls > 0, let reason else { return nil }
        return state.withLock { state in
            if case .bool(true)? = state.configuration.value("suppress_recrawl_warnings") { return nil }
            return "Recrawled this watch \(recrawls) time\(recrawls == 1 ? "" : "s"), most recently because:\n\(reason)\n"
                + "To resolve, please review the information on\nhttps://facebook.github.io/watchman/docs/troubleshooting.html#recrawl"
        }
    }

    /// Reads `.watchmanconfig` again after it changed. A damaged one is
    /// not used: the root keeps the configuration it had, and replies warn
    /// about the file until it is fixed. A change to what is counted
    /// re-subscribes the watcher and crawls again.
    func reloadConfiguration() {
        let loaded = ConfigurationFiles.local(root: path)
        let changedShape = state.withLock { state -> Bool in
            switch loaded {
            case .failure(let problem):
                state.configurationProblem = problem.description
                return false
            case .success(let local):
                var configuration = state.configuration
                configuration.local = local
                do {
                    try configuration.validate()
                } catch {
                    state.configurationProblem = "\(error)"
                    return false
                }
                state.configurationProblem = nil
                state.configuration = configuration
                let shape = WatchShape(configuration)
                defer { state.shape = shape }
                return shape != state.shape
            }
        }
        guard changedShape else { return }
        subscribe()
        recrawl(because: ".watchmanconfig changed what is watched")
    }
}

extension Root {
    /// Threads a whole crawl lists directories with: one per core, at most four.
    static let crawlThreads = max(1, min(4, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

    /// Forgets entries deleted more than `seconds` ago, and the named
    /// cursors from before what was forgotten.
    func ageOut(olderThan seconds: Int64) {
        state.withLock { state in
            state.table.ageOut(deletedBefore: Int64(time(nil)) - seconds)
            let forgotten = UInt64(state.table.lastAgeOut)
            state.cursors = state.cursors.filter { $0.value >= forgotten }
        }
    }
}

extension Root {
    /// Periodic care: ages out deleted entries every `gc_interval_seconds`;
    /// returns whether the root has been idle past `idle_reap_age_seconds`
    /// (and nothing keeps it), so that the registry lets it go.
    func housekeep(now: Int64) -> Bool {
        let configuration = state.withLock { $0.configuration }
        let (actions, reap) = machine.withLock { $0.housekeep(wall: now, configuration) }
        perform(actions)
        return reap
    }
}

/// The directories a walk has yet to list, shared by the threads walking
/// (under a lock): depth first, and done once none is left and no thread
/// is still listing one (which may add more).
struct WalkQueue: Sendable {
    var pending: [(id: Int32, relative: [UInt8])]
    var busy = 0
    var walked = Set<Int32>()

    init(pending: [(id: Int32, relative: [UInt8])]) {
        self.pending = pending
    }

    /// The next directory to list; nil once the walk is over. While
    /// others list the last directories, waits for what they find.
    static func take(_ queue: Locked<WalkQueue>) -> (id: Int32, relative: [UInt8])? {
        while true {
            enum Step { case work((id: Int32, relative: [UInt8])), wait, over }
            let step = queue.withLock { queue -> Step in
                if let next = queue.pending.popLast() {
                    queue.busy += 1
                    return .work(next)
                }
                return queue.busy > 0 ? .wait : .over
            }
            switch step {
            case .work(let directory): return directory
            case .over: return nil
            case .wait: usleep(100)
            }
        }
    }

    mutating func done(_ id: Int32, below: [(id: Int32, relative: [UInt8])]) {
        busy -= 1
        walked.insert(id)
        pending.append(contentsOf: below.reversed())
    }
}
