@testable import Signals
@testable import WatchSources

/// Collects a tail subscription's lines.
final class TailRecorder: Sendable {
    private let lines = Locked<[Tail.Line]>([])
    private let failure = Locked<String?>(nil)
    private let ended = Locked(false)
    private let subscription = Locked<(any Disposable)?>(nil)

    init(_ signal: Signal<Tail.Line>) {
        let disposable = signal.subscribe(onNext: { [lines] line in
            lines.withLock { $0.append(line) }
        }, onError: { [failure] error in
            failure.withLock { $0 = String(describing: error) }
        }, onCompleted: { [ended] in
            ended.withLock { $0 = true }
        })
        subscription.withLock { $0 = disposable }
    }

    var all: [Tail.Line] { lines.withLock { $0 } }
    var texts: [String] { all.map(\.text) }
    var error: String? { failure.withLock { $0 } }
    /// Whether the signal completed (every followed name reached its end).
    var completed: Bool { ended.withLock { $0 } }

    func dispose() { subscription.withLock { $0 }?.dispose() }
}
