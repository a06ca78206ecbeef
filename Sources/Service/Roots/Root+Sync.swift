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
    /// met it. A reader still behind at the deadline is a timeout, as an
    /// unseen cookie is.
    func sync(timeout: Duration) throws(QueryError) {
        let deadline = DispatchTime.after(timeout)
        guard waitUntilReady(until: deadline) else { throw QueryError(Self.syncTimedOut(timeout)) }
        if let reason = unavailableReason { throw QueryError(reason) }
        let written = try writeCookies()
        // Removed before the answer: a client may remove the directory next
        // (watchman's own tests remove `.hg` right after a query).
        defer { for cookie in written { Cookies.remove(cookie.name, in: cookie.directory) } }
        var flushed = true
        drainingHere {
            flushed = reader.flushReads(until: deadline)
            drain()
        }
        let seen = flushed && written.allSatisfy { $0.waiter.wait(timeout: deadline) == .success }
        guard seen else {
            state.withLock { state in
                for cookie in written { _ = state.cookies.removeValue(forKey: cookie.serial) }
            }
            throw QueryError(Self.syncTimedOut(timeout))
        }
        if let reason = unavailableReason { throw QueryError(reason) }
    }

    typealias Cookie = (serial: UInt64, name: [UInt8], directory: [UInt8], waiter: DispatchSemaphore)

    /// Writes a cookie into each cookie directory, each awaited: where the
    /// table says the VCS directory is, the root itself when that has just
    /// gone, and each polled subtree that is there.
    private func writeCookies() throws(QueryError) -> [Cookie] {
        var written: [Cookie] = []
        for (index, relative) in cookieDirectories().enumerated() {
            var directory = absolute(relative)
            let (serial, name) = Cookies.nextName()
            let waiter = DispatchSemaphore(value: 0)
            state.withLock { $0.cookies[serial] = waiter }
            var error = Cookies.create(name, in: directory)
            if index == 0, error != nil, !relative.isEmpty {
                directory = path
                error = Cookies.create(name, in: directory)
            }
            if let error {
                state.withLock { _ = $0.cookies.removeValue(forKey: serial) }
                guard index > 0 else {
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

    /// Where cookies go (relative; the first is the root's own): the
    /// first version-control directory the table holds (else the root),
    /// then each polled subtree.
    func cookieDirectories() -> [[UInt8]] {
        let directories = state.withLock { state -> [[UInt8]] in
            let main = Self.cookieDirectory(of: state)
            return [main] + state.polled.filter { !$0.isEmpty && $0 != main }.sorted { $0.lexicographicallyPrecedes($1) }
        }
        return [directories[0]] + directories.dropFirst().filter { FileStat.of(Cookies.cPath(absolute($0)))?.type == .directory }
    }

    /// Where this process's cookies are cookies rather than files
    /// (relative): the first version-control directory the table holds
    /// (else the root), and each polled subtree.
    static func cookieDirectories(of state: State) -> Set<[UInt8]> {
        Set([cookieDirectory(of: state)]).union(state.polled)
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
        let crawling = state.withLock { state -> Bool in
            guard state.phase == .crawling else { return false }
            state.readyWaiters.append(waiter)
            return true
        }
        return !crawling || waiter.wait(timeout: deadline) == .success
    }
}
