/// The serializer behind every operator with several inputs (sources,
/// inner signals, timers): inputs submitted from any thread, or from inside
/// the body itself, are handed to `body` one at a time and in arrival order
/// by whichever thread finds the drain idle (queue-drain, see `SerialQueue`).
///
/// The operator's state lives in the body's captured variables and is only
/// touched there, so no lock is ever held while the body sends downstream,
/// and what one input decides is sent before the next input is looked at:
/// nothing is reordered between computing an output and sending it. A send
/// from downstream back into an input (re-entrancy) is queued, never nested;
/// so is a signal subscribed from the body that sends synchronously, which
/// turns recursion (concat of many synchronous signals) into a loop.
///
/// Inner subscriptions and timers capture the drain; the operator breaks
/// that cycle by disposing them when its subscription ends.
@usableFromInline
final class Drain<Input>: @unchecked Sendable {
    // Safety: `body` (and whatever state it captures) runs only inside
    // `queue`'s drain, which hands the right to run it from thread to thread
    // with acquire/release ordering, one input at a time.
    @usableFromInline let queue = SerialQueue<Input>()
    @usableFromInline let body: (Drain<Input>, Input) -> Void

    /// A drain running `body` for each input. `body` is handed the drain
    /// itself, to give to the inner subscriptions and timers it starts.
    @inlinable
    init(_ body: @escaping (_ drain: Drain<Input>, Input) -> Void) {
        self.body = body
    }

    /// Applies `input` now, or queues it for the thread already draining.
    @inlinable @inline(__always)
    func submit(_ input: Input) {
        queue.submit(input) { body(self, $0) }
    }
}

extension Signal {
    /// For operators that send downstream only from inside a `Drain`: the
    /// drain already delivers one event at a time, in order, so the
    /// observer skips a second serializing queue (as `serial` operators do).
    @inlinable
    static func drained(_ producer: @escaping @Sendable (Observer<Value>) -> any Disposable) -> Signal<Value> {
        serial(producer)
    }
}
