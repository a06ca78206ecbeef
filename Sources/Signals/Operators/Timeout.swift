extension Signal {
    /// Fails with `TimeoutError` when `interval` passes without a value,
    /// counted from the subscription and then from each value.
    ///
    ///     source:  -a--b------c-|
    ///     output:  -a--b---#          timeout(4 ticks)
    ///
    /// Completion and errors pass through and cancel the timer. On timeout
    /// the source is disposed. Disposing disposes the source and cancels
    /// the timer.
    @inlinable
    public func timeout(_ interval: Duration, scheduler: some Scheduler) -> Signal<Value> {
        timed(on: scheduler) {
            var state = TimeoutState<Value>()
            return { input, timer, observer in
                switch state.step(input) {
                case .none:
                    break
                case .arm(let generation):
                    timer.arm(after: interval, generation)
                case .forwardRearming(let value, let generation):
                    observer.sendNext(value)
                    timer.arm(after: interval, generation)
                case .end(let terminal):
                    timer.cancel()
                    observer.send(terminal)
                case .timedOut:
                    observer.sendError(TimeoutError(interval: interval))
                }
            }
        }.described("timeout", [interval.label], after: self)
    }
}

/// What `timeout` knows: which arming of the timer is current (each value
/// re-arms it, and an older firing may already be on its way), or that it
/// has finished.
@usableFromInline
struct TimeoutState<Value> {
    @usableFromInline
    enum Phase {
        case waiting(generation: Int)
        case finished
    }

    /// What the operator does after a step, outside the state.
    @usableFromInline
    enum Action {
        case none
        /// Arm the timer with this generation.
        case arm(Int)
        /// Send the value, then re-arm the timer with this generation.
        case forwardRearming(Value, Int)
        /// Cancel the timer and send this terminal event.
        case end(Event<Value>)
        /// Fail with `TimeoutError`.
        case timedOut
    }

    @usableFromInline var phase: Phase = .waiting(generation: 0)

    @inlinable init() {}

    @inlinable
    mutating func step(_ input: TimedInput<Value, Int>) -> Action {
        // Once timed out, the source may still send until its disposal
        // lands, and a late firing may come: both are ignored.
        guard case .waiting(let generation) = phase else { return .none }
        switch input {
        case .start:
            phase = .waiting(generation: generation + 1)
            return .arm(generation + 1)
        case .event(.next(let value)):
            phase = .waiting(generation: generation + 1)
            return .forwardRearming(value, generation + 1)
        case .event(let terminal):
            phase = .finished
            return .end(terminal)
        case .timerFired(let tag):
            guard tag == generation else { return .none }
            phase = .finished
            return .timedOut
        }
    }
}
