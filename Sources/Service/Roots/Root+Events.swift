import Glibc
import WatchSources

extension Root {
    /// On the watcher's thread: applies a batch, or queues it for the
    /// worker. A quick batch (`isQuick`: an editor's save, a touch) with
    /// nothing queued before it and none behind it in the kernel's queue
    /// (in a storm the worker applies many batches at once), on a ready
    /// root whose table no one is writing (the machine decides), is
    /// applied here: a few `lstat`s, and the next query finds it in the
    /// table without waking the worker first. Anything that may
    /// take long (a directory, to walk; an overflow or a configuration
    /// change, to crawl; a crawl or a sync writing) goes to the worker, so
    /// the reader goes back to the kernel at once and never waits for the
    /// table.
    func receive(_ events: [FileEvent]) {
        let quick = Self.isQuick(events)
        // Asked here, on the reader's own thread, between two of its
        // deliveries: what the kernel queued behind this batch.
        let behind = quick && reader.hasQueued()
        decide { $0.received(events, quick: quick, readerBehind: behind) }
    }

    /// `applyHere`: applies the inbox on the watcher's thread, which the
    /// machine made the table's writer.
    func applyOnReader() {
        let result = drainWriting()
        decide { $0.writeEnded() }
        finishDrain(result)
    }

    /// The most events `receive` applies on the watcher's thread.
    static let appliedOnReaderLimit = 16

    /// Whether applying `events` takes no more than a few `lstat`s: few,
    /// none a directory (to walk), an overflow (to crawl) or a
    /// `.watchmanconfig` (which may re-subscribe and crawl).
    static func isQuick(_ events: [FileEvent]) -> Bool {
        events.count <= appliedOnReaderLimit && !events.contains { event in
            event.isDirectory || event.kind == .overflow
                || event.path.withBytes { $0.count >= configurationName.count && $0.suffix(configurationName.count).elementsEqual(configurationName) }
        }
    }

    /// `/.watchmanconfig`, as the end of a path.
    private static let configurationName = Array("/.watchmanconfig".utf8)

    /// Runs `body` on the worker once every change the kernel queued
    /// before the call is in the table: what happened before a moment the
    /// watcher's thread saw (a version-control operation's end) is then in
    /// what a subscription is answered from, even if the watcher read it
    /// in the same read and delivers it after that moment's notice.
    func afterApplyingQueued(_ body: @escaping @Sendable () -> Void) {
        worker.async { [self] in
            reader.flushReads()
            drain()
            body()
        }
    }

    /// Runs `body` (a sync reading the reader's queue and having the
    /// worker drain it at once) without a drain scheduled for events it
    /// has applied anyway; wakes the worker afterwards for any that came
    /// too late.
    func whileSyncing(_ body: () -> Void) {
        machine.withLock { $0.syncBegan() }
        body()
        decide { $0.syncEnded() }
    }

    /// Applies everything queued, batch by batch, on the worker (the
    /// watcher's thread applies a small batch itself: `applyOnReader`).
    /// Then, with no lock held, tells `changes` the tick reached (what
    /// subscriptions run their queries on), and lets the root go if its
    /// clock ran out of ticks (a new instance: clients watch again and get
    /// one fresh answer, rather than a clock that wrapped).
    func drain() {
        finishDrain(writingOnWorker { drainWriting() })
    }

    /// What `drain` does once the lock is let go.
    private func finishDrain(_ result: (applied: Bool, exhausted: Bool)) {
        guard result.applied else { return }
        let tick = state.withLock { $0.table.tick }
        decide { $0.applied(tick: tick, exhausted: result.exhausted) }
    }

    /// `drain`, as the table's writer: whether anything was applied, and
    /// whether the clock is exhausted.
    private func drainWriting() -> (applied: Bool, exhausted: Bool) {
        var applied = false
        while true {
            let events = machine.withLock { $0.takeEvents() }
            guard !events.isEmpty else { return (applied, state.withLock { $0.table.isExhausted }) }
            guard isLive else { continue }
            process(events)
            applied = true
        }
    }

    /// Looks again at what `events` name, applies what was found, and
    /// wakes the syncs whose cookies were among them.
    func process(_ events: [FileEvent]) {
        let (polled, awaited) = machine.withLock { ($0.polled, $0.awaitedCookies) }
        let (shape, cookieDirectories) = state.withLock { ($0.shape, Self.cookieDirectories(of: $0, polled: polled)) }
        var plan = ChangePlan()
        for event in events {
            plan.add(event, root: path, shape: shape, cookieDirectories: cookieDirectories, awaited: awaited)
        }
        if plan.overflowed {
            recrawl(because: "inotify queue overflowed")
        } else if !plan.looks.isEmpty {
            look(plan.looks)
            warmHashes(plan.looks.map(\.relative))
        }
        if plan.configurationTouched { reloadConfiguration() }
        if !plan.cookies.isEmpty {
            // A sync moves the clock, as watchman's does: two synced clocks differ.
            if plan.looks.isEmpty, !plan.overflowed { state.withLock { $0.table.advance(now: Int64(time(nil))) } }
            decide { $0.cookiesSeen(plan.cookies) }
        }
    }

    /// `lstat`s each look outside the lock, applies what was found, walks
    /// what must be walked, and looks again (walking) at directories the
    /// table turned out not to know.
    func look(_ looks: [ChangePlan.Look]) {
        var looks = looks
        for _ in 0..<2 where !looks.isEmpty {
            let found = looks.map { look in (look, FileStat.of(Cookies.cPath(absolute(look.relative)))) }
            let (walks, unknown) = state.withLock { state in Self.apply(found, to: &state.table) }
            for (id, relative) in walks { walk(from: id, relative) }
            looks = unknown.map { ChangePlan.Look(relative: $0, walk: true) }
        }
    }

    /// The absolute path of `relative`.
    func absolute(_ relative: [UInt8]) -> [UInt8] {
        relative.isEmpty ? path : path + [UInt8(ascii: "/")] + relative
    }

    /// Applies what `lstat` found at each look, in one tick; returns the
    /// directories to walk (new or moved in), and the top of each path
    /// whose directory the table does not know (its creation was not seen:
    /// it is looked at again, and walked).
    static func apply(_ found: [(ChangePlan.Look, FileStat?)], to table: inout FileTable) -> (walks: [(Int32, [UInt8])], unknown: [[UInt8]]) {
        table.advance(now: Int64(time(nil)))
        var walks: [(Int32, [UInt8])] = []
        var unknown: [[UInt8]] = []
        var vanished = Set<Int32>()
        for (look, stat) in found {
            guard let stat else {
                if let id = look.relative.withUnsafeBufferPointer({ table.lookup(path: $0) }), table[id].exists {
                    if table[id].isDirectory { vanished.insert(id) }
                    table.markDeleted(id)
                }
                continue
            }
            guard let parent = directoryID(holding: look.relative, in: table) else {
                if let top = unknownTop(of: look.relative, in: table), !unknown.contains(top) { unknown.append(top) }
                continue
            }
            let name = Array(look.relative.split(separator: UInt8(ascii: "/")).last ?? [])
            let (id, outcome) = name.withUnsafeBufferPointer { table.record(parent: parent, name: $0, stat) }
            if stat.type == .directory, look.walk || outcome == .appeared { walks.append((id, look.relative)) }
        }
        table.markDeleted(below: vanished)
        return (walks, unknown)
    }

    /// The existing directory entry holding `relative`, if the table has it.
    private static func directoryID(holding relative: [UInt8], in table: FileTable) -> Int32? {
        guard let slash = relative.lastIndex(of: UInt8(ascii: "/")) else { return 0 }
        let parent = Array(relative[..<slash])
        guard let id = parent.withUnsafeBufferPointer({ table.lookup(path: $0) }), table[id].exists, table[id].isDirectory else { return nil }
        return id
    }

    /// The first directory on the way to `relative` that the table does
    /// not hold as an existing directory.
    private static func unknownTop(of relative: [UInt8], in table: FileTable) -> [UInt8]? {
        var prefix: [UInt8] = []
        for component in relative.split(separator: UInt8(ascii: "/")).dropLast() {
            if !prefix.isEmpty { prefix.append(UInt8(ascii: "/")) }
            prefix += component
            let id = prefix.withUnsafeBufferPointer { table.lookup(path: $0) }
            guard let id, table[id].exists, table[id].isDirectory else { return prefix }
        }
        return nil
    }
}
