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

