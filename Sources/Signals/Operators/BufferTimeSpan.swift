extension Signal {
    /// Collects values and emits them as an array every `timeSpan`, or as
    /// soon as `count` values are collected, whichever comes first; each
    /// emission starts a new span (RxSwift's `buffer(timeSpan:count:scheduler:)`).
    ///
    ///     source:  -a-b-c-d----e-|
    ///     output:  ---x---y---z--(w|)     buffer(timeSpan: 4 ticks, count: 2)
    ///                                     x = [a, b], y = [c, d], z = [], w = [e]
    ///
    /// A span with no value emits an empty array, as in RxSwift. Completion
    /// emits what was collected, then completes; an error is forwarded at
    /// once and drops it. Disposing disposes the source and cancels the timer.
    @inlinable
    public func buffer(timeSpan: Duration, count: Int = .max, scheduler: some Scheduler) -> Signal<[Value]> {
        timed(on: scheduler) {
            var state = BufferTimeSpanState<Value>(limit: Swift.max(1, count))
            return { input, timer, observer in
                switch state.step(input) {
                case .none:
                    break
                case .startSpan(let span):
                    timer.arm(after: timeSpan, span)
                case .emitStartingSpan(let values, let span):
                    // A new span starts with its own timer, then the full one goes out.
                    timer.arm(after: timeSpan, span)
                    observer.sendNext(values)
                case .complete(let values):
                    timer.cancel()
                    observer.sendNext(values)
                    observer.sendCompleted()
                case .fail(let error):
                    timer.cancel()
                    observer.sendError(error)
                }
            }
        }.described("buffer", [timeSpan.label] + (count == .max ? [] : ["count: \(count)"]), after: self)
    }
}

/// What `buffer(timeSpan:count:scheduler:)` knows: the values of the current
/// span and which span is current (a span that ends full re-arms the timer,
/// and the older firing may already be on its way), or that it finished.
@usableFromInline
struct BufferTimeSpanState<Value> {
    @usableFromInline
    enum Phase {
        case collecting([Value], span: Int)
        case finished
    }

    /// What the operator does after a step, outside the state.
    @usableFromInline
    enum Action {
        case none
        /// Arm the timer for this span.
        case startSpan(Int)
        /// Arm the timer for this new span, then send the previous span's values.
        case emitStartingSpan([Value], Int)
        /// Cancel the timer, send what was collected, complete.
        case complete([Value])
        /// Cancel the timer and fail; what was collected is dropped.
        case fail(any Error)
    }

    @usableFromInline let limit: Int
    @usableFromInline var phase: Phase = .collecting([], span: 0)

    @inlinable
    init(limit: Int) {
        self.limit = limit
    }

    @inlinable
    mutating func step(_ input: TimedInput<Value, Int>) -> Action {
        guard case .collecting(var values, let span) = phase else {
            // Only a late firing can come once finished.
            guard case .timerFired = input else { preconditionFailure("buffer: an event after the source ended") }
            return .none
        }
        switch input {
        case .start:
            phase = .collecting([], span: span + 1)
            return .startSpan(span + 1)
        case .event(.next(let value)):
            phase = .finished  // so that `values` is uniquely referenced
            values.append(value)
            guard values.count >= limit else {
                phase = .collecting(values, span: span)
                return .none
            }
            phase = .collecting([], span: span + 1)
            return .emitStartingSpan(values, span + 1)
        case .timerFired(let tag):
            guard tag == span else { return .none }
            phase = .collecting([], span: span + 1)
            return .emitStartingSpan(values, span + 1)
        case .event(.completed):
            phase = .finished
            return .complete(values)
        case .event(.error(let error)):
            phase = .finished
            return .fail(error)
        }
    }
}
