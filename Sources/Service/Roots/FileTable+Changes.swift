/// What recording a name's `lstat` did to its entry.
enum RecordOutcome: Equatable {
    /// It was known, and nothing changed.
    case unchanged
    /// It was known and existing, and something changed.
    case changed
    /// It is new, came back after a deletion, or is another file now
    /// (another inode): its `cclock` moved too.
    case appeared
}

extension FileTable {
    /// Starts the next tick (a batch of changes) at `now` (Unix seconds).
    mutating func advance(now: Int64) {
        tick &+= 1
        times.record(tick: tick, at: now)
    }

    /// Whether the clock is near the end of its 32 bits: the root must
    /// start over as a new instance (clients see a fresh instance once).
    var isExhausted: Bool { tick >= UInt32.max - 1 }

    /// Records that `name` in the directory `parent` exists as `stat`
    /// says, at the current tick.
    @discardableResult
    mutating func record(parent: Int32, name: UnsafeBufferPointer<UInt8>, _ stat: FileStat) -> (id: Int32, outcome: RecordOutcome) {
        guard let id = lookup(parent: parent, name) else {
            let id = insertNew(parent: parent, name: name, stat)
            return (id, .appeared)
        }
        var entry = self[id]
        let outcome: RecordOutcome
        if !entry.exists || details(of: entry).ino != stat.ino || entry.type != stat.type {
            outcome = .appeared
        } else if differs(entry, stat) {
            outcome = .changed
        } else {
            entry.seen = true
            self[id] = entry
            return (id, .unchanged)
        }
        update(id, &entry, stat)
        if outcome == .appeared { entry.cclock = tick }
        entry.exists = true
        entry.seen = true
        self[id] = entry
        return (id, outcome)
    }

    /// Records the root directory's own `lstat`.
    mutating func recordRoot(_ stat: FileStat) {
        var entry = self[0]
        guard differs(entry, stat) else { return }
        update(0, &entry, stat)
        self[0] = entry
    }

    /// Marks `id` deleted at the current tick (if it exists).
    mutating func markDeleted(_ id: Int32) {
        var entry = self[id]
        guard entry.exists, id != 0 else { return }
        entry.exists = false
        touch(id, &entry)
        self[id] = entry
    }

    /// Marks every existing entry below the directories `tops` deleted
    /// (one pass over the table, however many tops).
    mutating func markDeleted(below tops: Set<Int32>) {
        guard !tops.isEmpty else { return }
        var below = [UInt8](repeating: 0, count: Int(idLimit))  // 0 unknown, 1 below, 2 not
        for id in tops where id < idLimit { below[Int(id)] = 1 }
        for id in 1..<idLimit where isLive(id) && self[id].exists {
            if isBelow(id, &below) { markDeleted(id) }
        }
    }

    /// Whether an ancestor of `id` is marked 1 in `memo` (filling it in on the way).
    private func isBelow(_ id: Int32, _ memo: inout [UInt8]) -> Bool {
        var chain: [Int32] = []
        var current = self[id].parent
        var answer = false
        while current > 0 {
            let known = memo[Int(current)]
            if known != 0 {
                answer = known == 1
                break
            }
            chain.append(current)
            current = self[current].parent
        }
        for ancestor in chain { memo[Int(ancestor)] = answer ? 1 : 2 }
        return answer
    }

    /// Takes a fresh `stat` into an existing entry and moves its `oclock`.
    private mutating func update(_ id: Int32, _ entry: inout FileEntry, _ stat: FileStat) {
        apply(stat, to: &entry)
        touch(id, &entry)
    }

    /// Moves `oclock` to the current tick, logging the change once per tick.
    private mutating func touch(_ id: Int32, _ entry: inout FileEntry) {
        guard entry.oclock != tick else { return }
        entry.oclock = tick
        // The root's own entry is never reported.
        if logsChanges, id != 0 { log.note(id, at: tick) }
    }

    private mutating func insertNew(parent: Int32, name: UnsafeBufferPointer<UInt8>, _ stat: FileStat) -> Int32 {
        let id = insertEntry(parent: parent, name: name, stat)
        var entry = self[id]
        entry.cclock = tick
        entry.oclock = tick
        entry.exists = true
        entry.seen = true
        self[id] = entry
        if logsChanges { log.note(id, at: tick) }
        return id
    }

    // MARK: Crawls

    /// Clears every entry's `seen` mark before a crawl pass.
    mutating func clearSeen() {
        for id in 0..<idLimit where isLive(id) && self[id].seen { self[id].seen = false }
    }

    /// After a crawl pass over the directories `crawled` (found in them,
    /// recursively): what they held before and the pass did not see is
    /// gone, with everything below it. Clears the marks.
    mutating func finishCrawl(_ crawled: Set<Int32>) {
        var vanished = Set<Int32>()
        for id in 1..<idLimit where isLive(id) {
            var entry = self[id]
            if entry.seen {
                entry.seen = false
                self[id] = entry
            } else if entry.exists, crawled.contains(entry.parent) {
                markDeleted(id)
                if entry.isDirectory { vanished.insert(id) }
            }
        }
        markDeleted(below: vanished)
    }

    /// Stops logging changes (a crawl filling the table) or starts again,
    /// with every change so far found by scanning.
    mutating func setLogging(_ on: Bool) {
        logsChanges = on
        if on { resetLog() }
    }
}
