extension Signal {
    /// Shifts values and completion later by `interval`, keeping their
    /// spacing and order.
    ///
    ///     source:  -a-b-|
    ///     output:  ---a-b-|     delay(2 ticks)
    ///
    /// An error is forwarded at once (RxSwift and RAC do the same) and drops
    /// what was still delayed. Disposing disposes the source and cancels the
    /// timer; delayed events are dropped.
    @inlinable
    public func delay(_ interval: Duration, scheduler: some Scheduler) -> Signal<Value> {
        timed(on: scheduler) {
            var state = DelayState<Value>(interval: interval)
            return { (input: TimedInput<Value, Void>, timer, observer) in
                guard !observer.isStopped else { return }
                switch input {
                case .start:
                    break
                case .event(let event):
                    switch state.receive(event, at: timer.now) {
                    case .none: break
                    case .arm(let delay): timer.arm(after: delay, ())
                    case .fail(let error):
                        timer.cancel()
                        observer.sendError(error)
                    }
                case .timerFired:
                    let now = timer.now
                    while !observer.isStopped, let event = state.popDue(at: now) {
                        observer.send(event)
                    }
                    if let delay = state.nextDelay(at: now) { timer.arm(after: delay, ()) }
                }
            }
        }.described("delay", [interval.label], after: self)
    }
}

/// What `delay` knows: the events waiting for their time, oldest first,
/// with the timer armed for the oldest; nothing waiting (no timer); or
/// finished (an error passed, or the delayed completion was delivered).
@usableFromInline
struct DelayState<Value> {
    @usableFromInline
    struct Delayed {
        @usableFromInline let due: Duration
        @usableFromInline let event: Event<Value>

        @inlinable
        init(due: Duration, event: Event<Value>) {
            self.due = due
            self.event = event
        }
    }

    @usableFromInline
    enum Phase {
        case idle
        case delaying(FIFO<Delayed>)
        case finished
    }

    /// What the operator does after an event, outside the state.
    @usableFromInline
    enum Action {
        case none
        /// Arm the timer for the first delayed event.
        case arm(after: Duration)
        /// Cancel the timer and fail at once; what was delayed is dropped.
        case fail(any Error)
    }

    @usableFromInline let interval: Duration
    @usableFromInline var phase: Phase = .idle

    @inlinable
    init(interval: Duration) {
        self.interval = interval
    }

    @inlinable
    mutating func receive(_ event: Event<Value>, at now: Duration) -> Action {
        if case .error(let error) = event {
            phase = .finished
            return .fail(error)
        }
        switch phase {
        case .idle:
            var queue = FIFO<Delayed>()
            queue.append(Delayed(due: now + interval, event: event))
            phase = .delaying(queue)
            return .arm(after: interval)
        case .delaying(var queue):
            phase = .idle  // so that `queue` is uniquely referenced
            queue.append(Delayed(due: now + interval, event: event))
            phase = .delaying(queue)
            return .none
        case .finished:
            preconditionFailure("delay: an event after the source ended")
        }
    }

    /// The oldest delayed event if it is due by `now`, taken off the queue.
    @inlinable
    mutating func popDue(at now: Duration) -> Event<Value>? {
        guard case .delaying(var queue) = phase, let head = queue.first, head.due <= now else { return nil }
        phase = .idle
        _ = queue.popFirst()
        if head.event.isTerminal {
            phase = .finished
        } else if !queue.isEmpty {
            phase = .delaying(queue)
        }
        return head.event
    }

    /// How long until the oldest delayed event is due, when one waits.
    @inlinable
    func nextDelay(at now: Duration) -> Duration? {
        guard case .delaying(let queue) = phase, let head = queue.first else { return nil }
        return head.due - now
    }
}
