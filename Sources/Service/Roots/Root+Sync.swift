import Dispatch
import Glibc
import WatchSources

extension Root {
    /// Returns once every change made before the call is in the table
    /// (watchman's sync to now), waiting at most `timeout`: the first
    /// crawl ends; the reader delivers what the kernel queued before now
    /// (a rename's first half waiting for its second among it); what was
    /// delivered is applied, here, without waiting for the worker; and
    /// each polled subtree's cookie is seen by the poller's pass (which
    /// applies with it what it found). A reader still behind at the
    /// deadline is a timeout, as an unseen cookie is.
    ///
    /// inotify needs no cookie: the kernel queues a change's record
    /// before the system call that made it returns, so what the reader
    /// finds queued now (`FIONREAD`) holds every change made before the
    /// request came; a cookie there would be read in the same barrier
    /// and prove nothing more. Cookies go where a change is only found
    /// by looking: into each polled subtree, and into the root (its VCS
    /// directory) when that is polled. Either way the clock moves, as
    /// watchman's does with its cookie: two synced clocks differ.
    func sync(timeout: Duration) throws(QueryError) {
        let deadline = DispatchTime.after(timeout)
        guard waitUntilReady(until: deadline) else { throw QueryError(Self.syncTimedOut(timeout)) }
        if let reason = unavailableReason { throw QueryError(reason) }
        let written = try writeCookies()
        // Removed before the answer: a client may remove the directory next
        // (watchman's own tests remove `.hg` right after a query).
        defer { for cookie in written { Cookies.remove(cookie.name, in: cookie.directory) } }
        var flushed = true
        whileSyncing {
            flushed = reader.flushReads(until: deadline)
            worker.sync { drain() }
        }
        let seen = flushed && written.allSatisfy { $0.waiter.wait(timeout: deadline) == .success }
        guard seen else {
            machine.withLock { $0.syncDeadlinePassed(written.map(\.serial)) }
            throw QueryError(Self.syncTimedOut(timeout))
        }
        if let reason = unavailableReason { throw QueryError(reason) }
        // The watcher's news of a removed root reaches the worker a moment
        // after the drain: the sync must not answer for a tree that is gone.
        if directoryIsGone { throw QueryError("root dir was removed") }
        if written.isEmpty { advanceClock() }
    }

    /// Whether the root's directory is gone (removed, or replaced by what
    /// is not a directory): one `lstat`, cheaper than any answer.
    var directoryIsGone: Bool {
        var info = stat()
        guard lstat(Cookies.cPath(path), &info) == 0 else { return errno == ENOENT || errno == ENOTDIR }
        return info.st_mode & S_IFMT != S_IFDIR
    }

    /// Moves the clock one tick with nothing changed (what a cookie seen
    /// does), and tells subscriptions, as a change applied would.
    private func advanceClock() {
        let moved = worker.sync { writingOnWorker { advanceClockWriting() } }
        decide { $0.applied(tick: moved.tick, exhausted: moved.exhausted) }
    }

    /// `advanceClock`'s part, as the table's writer: the tick reached, and
    /// whether the clock is exhausted (then it did not move, and the
    /// machine lets the root go).
    private func advanceClockWriting() -> (tick: UInt32, exhausted: Bool) {
        state.withLock { state in
            if !state.table.isExhausted { state.table.advance(now: Int64(time(nil))) }
            return (state.table.tick, state.table.isExhausted)
        }
    }

    /// `sync`, on the caller's thread and without sleeping (for the
    /// socket loop): true once every change made before the call is in
    /// the table and the clock has moved; false, having changed nothing,
    /// when that would take a wait or a long apply: the first crawl runs,
    /// a polled subtree needs a cookie, the reader is still behind after
    /// `caughtUpSpin`, or events wait to be applied or are being applied
    /// (the machine refuses the loop the table then: `loopSyncs`).
    func syncWithoutWaiting() -> Bool {
        guard machine.withLock({ $0.maySyncWithoutWaiting }),
              reader.waitUntilCaughtUp(spinningAtMost: Self.caughtUpSpin), !directoryIsGone else { return false }
        // Refused while anyone writes, or while something delivered waits
        // to be applied (the worker's, or a batch larger than the loop
        // should apply).
        guard machine.withLock({ $0.loopSyncs() }) else { return false }
        let moved = advanceClockWriting()
        decide { $0.writeEnded() + $0.applied(tick: moved.tick, exhausted: moved.exhausted) }
        return true
    }

    /// How long `syncWithoutWaiting` spins for a reader still reading (a
    /// change the client made just before asking): a fraction of what
    /// handing the request to a worker and its barrier costs.
    static let caughtUpSpin = Duration.microseconds(100)

    typealias Cookie = (serial: UInt64, name: [UInt8], directory: [UInt8], waiter: DispatchSemaphore)

    /// Writes a cookie into each polled subtree that is there, each
    /// awaited, and into the root's cookie directory (its VCS directory,
    /// else the root; the root itself when the former has just gone)
    /// when a polled subtree holds it: that one must be written.
    private func writeCookies() throws(QueryError) -> [Cookie] {
        var written: [Cookie] = []
        let (main, others) = cookieDirectories()
        for (index, relative) in ((main.map { [$0] } ?? []) + others).enumerated() {
            let required = index == 0 && main != nil
            var directory = absolute(relative)
            let (serial, name) = Cookies.nextName()
            let waiter = DispatchSemaphore(value: 0)
            machine.withLock { $0.cookieAwaited(serial, waiter) }
            var error = Cookies.create(name, in: directory)
            if required, error != nil, !relative.isEmpty {
                directory = path
                error = Cookies.create(name, in: directory)
            }
            if let error {
                machine.withLock { $0.cookieAbandoned(serial) }
                guard !required else {
                    throw QueryError("unable to create the sync cookie in \(String(decoding: directory, as: UTF8.self)): \(String(cString: strerror(error)))")
                }
                continue
            }
            written.append((serial, name, directory, waiter))
        }
        return written
    }

    static func syncTimedOut(_ timeout: Duration) -> String {
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        return "syncToNow: timed out waiting for cookie file to be observed by watcher within \(milliseconds) milliseconds"
    }

    /// Where a sync writes cookies (relative): the root's cookie
    /// directory when a polled subtree holds it (nil when inotify watches
    /// it), and each other polled subtree that is a directory now.
    func cookieDirectories() -> (main: [UInt8]?, others: [[UInt8]]) {
        let polled = machine.withLock { $0.polled }
        let main = state.withLock { Self.cookieDirectory(of: $0) }
        let covered = polled.contains { top in
            top.isEmpty || main == top || (main.starts(with: top) && main.count > top.count && main[top.count] == UInt8(ascii: "/"))
        }
        let others = polled.filter { !$0.isEmpty && $0 != main }.sorted { $0.lexicographicallyPrecedes($1) }
            .filter { FileStat.of(Cookies.cPath(absolute($0)))?.type == .directory }
        return (covered ? main : nil, others)
    }

    /// Where this process's cookies are cookies rather than files
    /// (relative): the first version-control directory the table holds
    /// (else the root), and each polled subtree.
    static func cookieDirectories(of state: State, polled: Set<[UInt8]>) -> Set<[UInt8]> {
        Set([cookieDirectory(of: state)]).union(polled)
    }

    /// The first version-control directory the table holds, else the root (relative).
    static func cookieDirectory(of state: State) -> [UInt8] {
        state.configuration.ignoreVCS.first { name in
            guard state.shape.vcs.contains(name),
                  let id = name.withUnsafeBufferPointer({ state.table.lookup(path: $0) }) else { return false }
            return state.table[id].exists && state.table[id].isDirectory
        } ?? []
    }

    /// `waitUntilReady` with a deadline.
    func waitUntilReady(until deadline: DispatchTime) -> Bool {
        let waiter = DispatchSemaphore(value: 0)
        let crawling = machine.withLock { $0.waitForReady(waiter) }
        return !crawling || waiter.wait(timeout: deadline) == .success
    }
}
