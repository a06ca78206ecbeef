import Dispatch
import Glibc
import WatchSources

extension Root {
    /// Returns once every change made before the call is in the table
    /// (watchman's sync to now), waiting at most `timeout`: the first
    /// crawl ends; cookies are written into the root (into its VCS
    /// directory) and into each polled subtree; the reader delivers what
    /// the kernel queued before now (the cookies in inotify's part among
    /// it, and a rename's first half waiting for its second); what was
    /// delivered is applied, here, without waiting for the worker; then
    /// each cookie is known seen: inotify's at once, a polled subtree's
    /// once the poller's pass (which applies with it what it found) has
    /// met it.
    func sync(timeout: Duration) throws(QueryError) {
        let deadline = DispatchTime.after(timeout)
        guard waitUntilReady(until: deadline) else { throw QueryError(Self.syncTimedOut(timeout)) }
        if let reason = unavailableReason { throw QueryError(reason) }
        var written: [(serial: UInt64, name: [UInt8], directory: [UInt8], waiter: DispatchSemaphore)] = []
        defer { for cookie in written { Cookies.remove(cookie.name, in: cookie.directory) } }
        for directory in cookieDirectories() {
            let (serial, name) = Cookies.nextName()
            let waiter = DispatchSemaphore(value: 0)
            state.withLock { $0.cookies[serial] = waiter }
            if let error = Cookies.create(name, in: directory) {
                state.withLock { _ = $0.cookies.removeValue(forKey: serial) }
                if directory == path {
                    throw QueryError("unable to create the sync cookie in \(String(decoding: directory, as: UTF8.self)): \(String(cString: strerror(error)))")
                }
                continue
            }
            written.append((serial, name, directory, waiter))
        }
        FileWatcher.flushReads()
        drain()
        for cookie in written where cookie.waiter.wait(timeout: deadline) == .timedOut {
            state.withLock { _ = $0.cookies.removeValue(forKey: cookie.serial) }
            throw QueryError(Self.syncTimedOut(timeout))
        }
        if let reason = unavailableReason { throw QueryError(reason) }
    }

    static func syncTimedOut(_ timeout: Duration) -> String {
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        return "syncToNow: timed out waiting for cookie file to be observed by watcher within \(milliseconds) milliseconds"
    }

    /// Where cookies go: the first version-control directory the root
    /// has (else the root itself), and each polled subtree that exists.
    func cookieDirectories() -> [[UInt8]] {
        let (shape, polled, vcsOrder) = state.withLock { ($0.shape, $0.polled, $0.configuration.ignoreVCS) }
        var directories: [[UInt8]] = []
        let vcs = vcsOrder.first { name in
            shape.vcs.contains(name) && FileStat.of(Cookies.cPath(absolute(name)))?.type == .directory
        }
        directories.append(vcs.map(absolute) ?? path)
        for subtree in polled.sorted(by: { $0.lexicographicallyPrecedes($1) }) where !subtree.isEmpty {
            let directory = absolute(subtree)
            if FileStat.of(Cookies.cPath(directory))?.type == .directory { directories.append(directory) }
        }
        return directories
    }

    /// Where this process's cookies are cookies rather than files
    /// (relative): the first version-control directory the table holds
    /// (else the root), and each polled subtree.
    static func cookieDirectories(of state: State) -> Set<[UInt8]> {
        let vcs = state.configuration.ignoreVCS.first { name in
            guard state.shape.vcs.contains(name),
                  let id = name.withUnsafeBufferPointer({ state.table.lookup(path: $0) }) else { return false }
            return state.table[id].exists && state.table[id].isDirectory
        }
        return Set([vcs ?? []]).union(state.polled)
    }

    /// `waitUntilReady` with a deadline.
    func waitUntilReady(until deadline: DispatchTime) -> Bool {
        let waiter = DispatchSemaphore(value: 0)
        let crawling = state.withLock { state -> Bool in
            guard state.phase == .crawling else { return false }
            state.readyWaiters.append(waiter)
            return true
        }
        return !crawling || waiter.wait(timeout: deadline) == .success
    }
}
