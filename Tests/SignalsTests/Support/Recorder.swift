import Synchronization
#if canImport(Glibc)
import Glibc
#endif
@testable import Signals

/// Records the events a subscription receives, thread-safely, as short
/// strings: the value's description, `|` for completion, `#` for an error.
final class Recorder<Value>: Sendable {
    private let log = Locked<[String]>([])

    init() {}

    /// The closure to subscribe with.
    var handler: @Sendable (Event<Value>) -> Void {
        { [log] event in
            let entry: String
            switch event {
            case .next(let value): entry = "\(value)"
            case .error: entry = "#"
            case .completed: entry = "|"
            }
            log.withLock { $0.append(entry) }
        }
    }

    var events: [String] { log.withLock { $0 } }
}

/// A side-effect counter for producers.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    init() {}
    @discardableResult
    func increment() -> Int { value.add(1, ordering: .relaxed).newValue }
    var count: Int { value.load(ordering: .relaxed) }
}

struct TestError: Error, Equatable {}

/// Polls `condition` until it holds or `seconds` pass; for work that
/// completes on other threads. Returns whether it held.
func eventually(within seconds: Int = 10, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        pollPause()
    }
    return condition()
}

/// Yields the processor briefly between polls of a condition.
private func pollPause() {
    // One millisecond: a poll interval, not a wait for an outcome.
    var request = timespec(tv_sec: 0, tv_nsec: 1_000_000)
    nanosleep(&request, nil)
}
