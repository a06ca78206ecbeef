/// When the poll thread passes each job and opens each fence: its
/// decisions, as a value, with the clock passed in (monotonic
/// nanoseconds). `PollScanner`'s loop runs the passes and waits.
///
/// A pass starts every interval; one that takes longer than half the
/// interval pushes the next one back, so that polling a huge tree never
/// takes a whole core. A fence (`PollScanner.fence`) makes every job pass
/// at once, twice, and opens once those passes are done and no new file
/// is held back any more (the save rule's: a later pass announces it, at
/// the jobs' own pace).
struct PollSchedule<Gate> {
    /// Fences, with how many passes of every job each still waits for.
    private(set) var fences: [(gate: Gate, passes: Int)] = []

    /// A fence asked for while `jobs` jobs run: true when it opens at
    /// once (no job has a pass to wait for).
    mutating func fence(_ gate: Gate, jobs: Int) -> Bool {
        if jobs == 0 { return true }
        fences.append((gate, 2))
        return false
    }

    /// Every job is gone: every fence opens (returned).
    mutating func noJobs() -> [Gate] {
        defer { fences.removeAll() }
        return fences.map(\.gate)
    }

    /// Whether every job passes now, whenever it was due: a fence waits for passes.
    var passesEveryJob: Bool { fences.contains { $0.passes > 0 } }

    /// When a job is due again after a pass from `started` to `finished`.
    static func nextDue(started: UInt64, finished: UInt64, interval: Duration) -> UInt64 {
        let interval = UInt64(interval.clampedNanoseconds)
        return max(started + interval, finished + interval / 2)
    }

    /// A round of the due passes is over: each fence waits for one pass
    /// less. Returns the fences that open now: their passes done and,
    /// unless `holdsNewFiles`, no new file left to announce.
    mutating func roundEnded(holdsNewFiles: Bool) -> [Gate] {
        for index in fences.indices where fences[index].passes > 0 { fences[index].passes -= 1 }
        guard !holdsNewFiles else { return [] }
        let open = fences.filter { $0.passes <= 0 }.map(\.gate)
        fences.removeAll { $0.passes <= 0 }
        return open
    }

    /// How long (milliseconds, for `poll(2)`) to wait at `now` for the
    /// next due pass (`nextDue`): rounded up, at most a minute. (What the
    /// save rule holds goes out at a pass's end: no other deadline.)
    static func timeout(now: UInt64, nextDue: UInt64) -> Int32 {
        nextDue > now ? Int32(min((nextDue - now + 999_999) / 1_000_000, 60_000)) : 0
    }
}
