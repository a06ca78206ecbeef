/// When a root's clock ticked, to the second: for queries that compare a
/// file's `oclock` or `cclock` with a Unix time (`["since", 1700000000]`)
/// rather than with a clock.
///
/// A checkpoint is kept for the first tick of each second the clock ticked
/// in, so `time(of:)` is exact while at most `capacity` are kept. Past
/// that, pairs of the oldest are merged, keeping the later second: old
/// ticks then read as a little later than they were, so a query by time
/// reports a file too many rather than one too few.
struct TickTimes: Sendable {
    private var ticks: [UInt32] = []
    private var seconds: [Int64] = []
    private let capacity: Int

    init(capacity: Int = 8192) {
        self.capacity = max(4, capacity)
    }

    /// Notes that the clock reached `tick` at `now` (seconds).
    mutating func record(tick: UInt32, at now: Int64) {
        if let last = seconds.last, last >= now { return }
        ticks.append(tick)
        seconds.append(now)
        if ticks.count > capacity { thin() }
    }

    /// The second `tick` happened in (the start of time for ticks before any checkpoint).
    func time(of tick: UInt32) -> Int64 {
        // The last checkpoint at or before `tick`.
        var low = 0, high = ticks.count
        while low < high {
            let middle = (low + high) / 2
            if ticks[middle] <= tick { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? 0 : seconds[low - 1]
    }

    /// How many checkpoints are kept.
    var count: Int { ticks.count }

    /// Merges the older half's checkpoints two by two.
    private mutating func thin() {
        let half = ticks.count / 2
        var keptTicks: [UInt32] = [], keptSeconds: [Int64] = []
        keptTicks.reserveCapacity(capacity)
        keptSeconds.reserveCapacity(capacity)
        var index = 0
        while index + 1 < half {
            keptTicks.append(ticks[index])
            keptSeconds.append(seconds[index + 1])
            index += 2
        }
        keptTicks.append(contentsOf: ticks[index...])
        keptSeconds.append(contentsOf: seconds[index...])
        ticks = keptTicks
        seconds = keptSeconds
    }
}
