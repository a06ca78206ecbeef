extension Signal {
    /// Emits a value at once, then ignores values for `interval`; with
    /// `latest: true` the last value seen during the window is emitted when
    /// the window closes (and opens a new window).
    ///
    ///     source:  -a-b-c---------d-|
    ///     output:  -a----c--------d-|     throttle(5 ticks, latest: true)
    ///     output:  -a-------------d-|     throttle(5 ticks)
    ///
    /// Completion passes through at once, preceded by a pending latest value;
    /// an error passes through at once and drops it. Disposing disposes the
    /// source and cancels the window's timer.
    @inlinable
    public func throttle(_ interval: Duration, latest: Bool = false, scheduler: some Scheduler) -> Signal<Value> {
        timed(on: scheduler) {
            var state = ThrottleState<Value>(latest: latest)
            return { input, timer, observer in
                switch state.step(input) {
                case .none:
                    break
                case .emitOpeningWindow(let value):
                    // The window starts when its value arrives: timer first.
                    timer.arm(after: interval, ())
                    observer.sendNext(value)
                case .complete(let value):
                    timer.cancel()
                    if let value { observer.sendNext(value) }
                    observer.sendCompleted()
                case .fail(let error):
                    timer.cancel()
                    observer.sendError(error)
                }
            }
        }.described("throttle", [interval.label] + (latest ? ["latest"] : []), after: self)
    }
}

/// What `throttle` knows: whether a window is open and, with `latest`, the
/// value waiting for its end. One timer runs per window and nothing else
/// arms it, so a firing always ends the current window.
@usableFromInline
struct ThrottleState<Value> {
    @usableFromInline
    enum Phase {
        /// No window: the next value is emitted at once and opens one.
        case open
        /// A window runs until its timer fires; `latest` is the last value
        /// it saw (only with `latest: true`).
        case window(latest: Value?)
        case finished
    }

    /// What the operator does after a step, outside the state.
    @usableFromInline
    enum Action {
        case none
        /// Open a window (arm its timer), then send the value.
        case emitOpeningWindow(Value)
        /// Cancel the timer, send the pending latest value if any, complete.
        case complete(Value?)
        /// Cancel the timer and fail; a pending latest value is dropped.
        case fail(any Error)
    }

    @usableFromInline let latest: Bool
    @usableFromInline var phase: Phase = .open

    @inlinable
    init(latest: Bool) {
        self.latest = latest
    }

    @inlinable
    mutating func step(_ input: TimedInput<Value, Void>) -> Action {
        switch (input, phase) {
        case (.start, _):
            return .none
        case (.event(.next(let value)), .open):
            phase = .window(latest: nil)
            return .emitOpeningWindow(value)
        case (.event(.next(let value)), .window):
            if latest { phase = .window(latest: value) }
            return .none
        case (.timerFired, .window(let value?)):
            phase = .window(latest: nil)
            return .emitOpeningWindow(value)
        case (.timerFired, .window(nil)):
            phase = .open
            return .none
        case (.timerFired, .open), (.timerFired, .finished):
            // A firing as the source ended finds the state finished.
            return .none
        case (.event(.completed), .open):
            phase = .finished
            return .complete(nil)
        case (.event(.completed), .window(let value)):
            phase = .finished
            return .complete(value)
        case (.event(.error(let error)), .open), (.event(.error(let error)), .window):
            phase = .finished
            return .fail(error)
        case (.event, .finished):
            preconditionFailure("throttle: an event after the source ended")
        }
    }
}
