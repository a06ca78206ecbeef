extension Signal {
    /// Emits a value only after `interval` has passed without another one:
    /// a burst gives its last value, once things are quiet.
    ///
    ///     source:  -a-b-c--------d-|
    ///     output:  ---------c------(d|)     debounce(4 ticks)
    ///
    /// Completion flushes a pending value at once, then completes. An error
    /// passes through at once and drops it. Disposing disposes the source and
    /// cancels the timer. A steady stream postpones the value for ever: give
    /// it a cap with `debounce(_:maxWait:scheduler:)`.
    @inlinable
    public func debounce(_ interval: Duration, scheduler: some Scheduler) -> Signal<Value> {
        debounced(interval, maxWait: nil, flushOnError: false, scheduler: scheduler, start: { $0 }, collect: { $0 = $1 })
            .described("debounce", [interval.label], after: self)
    }

    /// The body of every `debounce`: `DebounceState` in the timed frame.
    @inlinable
    func debounced<Batch>(
        _ interval: Duration, maxWait: Duration?, flushOnError: Bool, scheduler: some Scheduler,
        holding: (@Sendable () -> Duration?)? = nil,
        start: @escaping @Sendable (Value) -> Batch, collect: @escaping @Sendable (inout Batch, Value) -> Void
    ) -> Signal<Batch> {
        timed(on: scheduler) {
            var state = DebounceState<Value, Batch>(
                interval: interval, maxWait: maxWait, flushOnError: flushOnError, holding: holding, start: start, collect: collect
            )
            return { input, timer, observer in
                switch state.step(input, at: timer.now) {
                case .none:
                    break
                case .arm(let delay):
                    timer.arm(after: delay, ())
                case .emit(let batch):
                    observer.sendNext(batch)
                case .complete(let batch):
                    timer.cancel()
                    if let batch { observer.sendNext(batch) }
                    observer.sendCompleted()
                case .fail(let batch, let error):
                    timer.cancel()
                    if let batch { observer.sendNext(batch) }
                    observer.sendError(error)
                }
            }
        }
    }
}

/// What `debounce` knows: nothing waiting, a window collecting values until
/// it closes, or finished. A window closes `interval` after its last value
/// or, with a cap, `maxWait` after its first, whichever comes first.
///
/// One timer is armed while a window is open. A window's end only moves
/// later, so that timer fires at or before it; when the end has moved, the
/// timer is armed again for the rest (one timer per window, not one per
/// value).
@usableFromInline
struct DebounceState<Value, Batch> {
    /// What the operator does after a step, outside the state.
    @usableFromInline
    enum Action {
        case none
        /// Arm the window's timer to fire after this delay.
        case arm(after: Duration)
        /// Send the closed window's batch.
        case emit(Batch)
        /// Cancel the timer, send the open window's batch if there is one,
        /// then complete.
        case complete(Batch?)
        /// Cancel the timer, send the open window's batch if there is one
        /// (only with `flushOnError`), then fail.
        case fail(Batch?, any Error)
    }

    /// An open window: what it collected, the latest it may close (nil
    /// without a cap), and when it closes if nothing else comes.
    @usableFromInline
    struct Window {
        @usableFromInline var batch: Batch
        @usableFromInline let cap: Duration?
        @usableFromInline var closes: Duration

        @inlinable
        init(batch: Batch, cap: Duration?, closes: Duration) {
            self.batch = batch
            self.cap = cap
            self.closes = closes
        }
    }

    @usableFromInline
    enum Phase {
        case idle
        case collecting(Window)
        case finished
    }

    @usableFromInline let interval: Duration
    /// At least `interval`, or nil for no cap.
    @usableFromInline let maxWait: Duration?
    /// Whether an error sends the open window's batch first (batches of
    /// things that happened) or drops it (a last value, now moot).
    @usableFromInline let flushOnError: Bool
    /// Makes a window's batch from its first value.
    @usableFromInline let start: (Value) -> Batch
    /// Adds a later value to the batch.
    @usableFromInline let collect: (inout Batch, Value) -> Void
    /// How much longer the source holds a value back, asked as a window
    /// would close (nil: nothing held, or no such source).
    @usableFromInline let holding: (() -> Duration?)?
    @usableFromInline var phase: Phase = .idle

    @inlinable
    init(interval: Duration, maxWait: Duration?, flushOnError: Bool, holding: (() -> Duration?)? = nil,
         start: @escaping (Value) -> Batch, collect: @escaping (inout Batch, Value) -> Void) {
        let interval = max(interval, .zero)
        self.interval = interval
        self.maxWait = maxWait.map { max($0, interval) }
        self.flushOnError = flushOnError
        self.holding = holding
        self.start = start
        self.collect = collect
    }

    @inlinable
    mutating func step(_ input: TimedInput<Value, Void>, at now: Duration) -> Action {
        switch input {
        case .start: return .none
        case .event(.next(let value)): return next(value, at: now)
        case .event(.completed): return complete()
        case .event(.error(let error)): return fail(error)
        case .timerFired: return timerFired(at: now)
        }
    }

    @inlinable
    mutating func next(_ value: Value, at now: Duration) -> Action {
        switch phase {
        case .idle:
            let cap = maxWait.map { now + $0 }
            phase = .collecting(Window(batch: start(value), cap: cap, closes: closing(after: now, cap: cap)))
            return .arm(after: interval)
        case .collecting(var window):
            // Out of `phase` first, so that the batch is uniquely referenced
            // and `collect` adds to it in place.
            phase = .idle
            collect(&window.batch, value)
            window.closes = closing(after: now, cap: window.cap)
            phase = .collecting(window)
            return .none
        case .finished:
            preconditionFailure("debounce: a value after the source ended")
        }
    }

    @inlinable
    mutating func timerFired(at now: Duration) -> Action {
        // A timer that fired as the source ended finds the state finished.
        guard case .collecting(var window) = phase else { return .none }
        if now < window.closes { return .arm(after: window.closes - now) }
        // The source holds a value back: the window waits for it, up to its cap.
        if let held = holding?(), held > .zero {
            let until = now + held + interval
            let closes = window.cap.map { min($0, until) } ?? until
            if closes > now {
                phase = .idle
                window.closes = closes
                phase = .collecting(window)
                return .arm(after: closes - now)
            }
        }
        phase = .idle
        return .emit(window.batch)
    }

    @inlinable
    mutating func complete() -> Action {
        defer { phase = .finished }
        switch phase {
        case .idle: return .complete(nil)
        case .collecting(let window): return .complete(window.batch)
        case .finished: preconditionFailure("debounce: the source ended twice")
        }
    }

    @inlinable
    mutating func fail(_ error: any Error) -> Action {
        defer { phase = .finished }
        switch phase {
        case .idle: return .fail(nil, error)
        case .collecting(let window): return .fail(flushOnError ? window.batch : nil, error)
        case .finished: preconditionFailure("debounce: the source ended twice")
        }
    }

    @inlinable
    func closing(after now: Duration, cap: Duration?) -> Duration {
        guard let cap else { return now + interval }
        return min(now + interval, cap)
    }
}
