import MallocCounter

/// Where benchmark values end up, so that the optimizer cannot drop the work.
final class Sink: @unchecked Sendable {
    // Safety: every benchmark runs on one thread.
    var total = 0
    init() {}
}

/// One measured case: its time and allocations per event.
struct Measurement {
    let shape: String
    let contender: String
    let events: Int
    let seconds: Double
    let allocations: UInt64

    var nanosecondsPerEvent: Double { seconds * 1e9 / Double(events) }
    var allocationsPerEvent: Double { Double(allocations) / Double(events) }
}

/// Runs `body` `repetitions` times and keeps the fastest run (the least
/// disturbed by other work on the machine) with its allocation count.
func measure(_ shape: String, _ contender: String, events: Int, repetitions: Int = 5,
             _ body: () -> Void) -> Measurement {
    var best: Measurement?
    for _ in 0..<repetitions {
        let clock = ContinuousClock()
        let allocationsBefore = malloc_counter_allocations()
        let start = clock.now
        body()
        let elapsed = clock.now - start
        let allocations = malloc_counter_allocations() - allocationsBefore
        let (seconds, attoseconds) = elapsed.components
        let run = Measurement(shape: shape, contender: contender, events: events,
                              seconds: Double(seconds) + Double(attoseconds) / 1e18, allocations: allocations)
        if best == nil || run.seconds < best!.seconds { best = run }
    }
    return best!
}

/// Prints a shape's contenders side by side, as a Markdown table row each,
/// with ratios against the floor and against Signals.
func report(_ rows: [Measurement]) {
    guard let signals = rows.first(where: { $0.contender == "Signals" }) else { return }
    let floor = rows.first(where: { $0.contender == "closure floor" })
    for row in rows {
        let vsFloor = floor.map { format(row.seconds / $0.seconds, "x") } ?? "–"
        let vsSignals = format(row.seconds / signals.seconds, "x")
        print("| \(row.shape) | \(row.contender) | \(format(row.nanosecondsPerEvent, "")) | "
            + "\(formatAllocations(row.allocationsPerEvent)) | \(vsFloor) | \(vsSignals) |")
    }
}

private func format(_ value: Double, _ suffix: String) -> String {
    let rounded = value >= 100 ? (value).rounded() : (value * 100).rounded() / 100
    return "\(rounded)\(suffix)"
}

private func formatAllocations(_ value: Double) -> String {
    if value == 0 { return "0" }
    if value >= 0.01 { return format(value, "") }
    return "\((value * 1_000_000).rounded() / 1_000_000)"
}

/// Hides a value from the optimizer.
@inline(never)
func blackHole<T>(_ value: T) {}

/// Hides a closure from the optimizer, so that the floor pays a real call.
@inline(never)
func opaque<T>(_ value: T) -> T { value }
