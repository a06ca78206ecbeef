/// The entries that changed after a tick, newest first, without walking
/// the whole table: the ids changed in each tick, in order.
///
/// Ticks at or before `baseline` are not in the log (the crawl that filled
/// the table, or a compaction that dropped them): a query from before it
/// scans the table. An id is logged again each time it changes; a record
/// is current when the entry's `oclock` is the record's tick. Once stale
/// records outnumber current ones the log is compacted, so it never holds
/// much more than one record per entry.
struct ChangeLog: Sendable {
    private(set) var baseline: UInt32 = 0
    private var ids: [Int32] = []
    /// Where each logged tick's records start in `ids`, in tick order.
    private var ticks: [(tick: UInt32, start: Int)] = []

    /// Notes that `id` changed at `tick` (the table's current tick; once
    /// per tick and entry).
    mutating func note(_ id: Int32, at tick: UInt32) {
        if ticks.last?.tick != tick { ticks.append((tick, ids.count)) }
        ids.append(id)
    }

    /// Whether every change after `tick` is in the log.
    func covers(since tick: UInt64) -> Bool { tick >= UInt64(baseline) }

    /// Calls `body` with each id whose latest change came after `since`,
    /// newest first; `oclock(id)` is the entry's current `oclock`.
    func forEachChanged(after since: UInt64, oclock: (Int32) -> UInt32, _ body: (Int32) -> Void) {
        var end = ids.count
        for (tick, start) in ticks.reversed() {
            guard UInt64(tick) > since else { break }
            for index in stride(from: end - 1, through: start, by: -1) where oclock(ids[index]) == tick {
                body(ids[index])
            }
            end = start
        }
    }

    /// How many records lie after `since`, counting no further than
    /// `limit` (more is `limit + 1`): at least as many as the entries
    /// changed after it, found in at most `limit + 1` steps.
    func records(after since: UInt64, upTo limit: Int) -> Int {
        var count = 0
        var end = ids.count
        for (tick, start) in ticks.reversed() {
            guard UInt64(tick) > since else { break }
            count += end - start
            if count > limit { return limit + 1 }
            end = start
        }
        return count
    }

    /// Forgets everything logged: changes up to `tick` are now found by scanning.
    mutating func reset(baseline tick: UInt32) {
        baseline = tick
        ids = []
        ticks = []
    }

    /// Drops stale records when they outnumber `liveEntries` (plus slack).
    mutating func compactIfNeeded(liveEntries: Int, oclock: (Int32) -> UInt32) {
        guard ids.count > 2 * liveEntries + 4096 else { return }
        var keptIDs: [Int32] = []
        var keptTicks: [(tick: UInt32, start: Int)] = []
        for (position, (tick, start)) in ticks.enumerated() {
            let end = position + 1 < ticks.count ? ticks[position + 1].start : ids.count
            let first = keptIDs.count
            for index in start..<end where oclock(ids[index]) == tick { keptIDs.append(ids[index]) }
            if keptIDs.count > first { keptTicks.append((tick, first)) }
        }
        ids = keptIDs
        ticks = keptTicks
    }

    /// Records held (for tests and diagnostics).
    var count: Int { ids.count }
}
