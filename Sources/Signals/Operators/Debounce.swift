extension Signal {
    /// Emits a value only after `interval` has passed without another one:
    /// a burst gives its last value, once things are quiet.
    ///
    ///     source:  -a-b-c--------d-|
    ///     output:  ---------c------(d|)     debounce(4 ticks)
    ///
    /// Completion flushes a pending value at once, then completes. An error
    /// passes through at once and drops it. Disposing disposes the source and
    /// cancels the timer.
    public func debounce(_ interval: Duration, scheduler: some Scheduler) -> Signal<Value> {
        Signal.drained { observer in
            let timer = SerialDisposable()
            var state = DebounceState<Value>()
            let inputs = Drain<DebounceState<Value>.Input> { drain, input in
                let output = state.step(input)
                if let value = output.value { observer.sendNext(value) }
                if let generation = output.startTimer {
                    timer.disposable = scheduler.schedule(after: interval) { drain.submit(.due(generation)) }
                }
                if let terminal = output.terminal {
                    timer.dispose()
                    observer.send(terminal)
                }
            }
            let source = self.start({ inputs.submit(.event($0)) })
            return CompositeDisposable([source, timer])
        }
    }
}

/// What `debounce` knows: the value waiting for quiet, and which timer is
/// current (an older timer firing late is ignored).
struct DebounceState<Value> {
    enum Input {
        case event(Event<Value>)
        case due(Int)
    }

    struct Output {
        var value: Value?
        /// Start a timer that delivers `.due` with this generation.
        var startTimer: Int?
        var terminal: Event<Value>?
    }

    private var pending: Value?
    private var generation = 0
    private var done = false

    mutating func step(_ input: Input) -> Output {
        guard !done else { return Output() }
        switch input {
        case .event(.next(let value)):
            pending = value
            generation += 1
            return Output(startTimer: generation)
        case .due(let tag):
            guard tag == generation, let value = pending else { return Output() }
            pending = nil
            return Output(value: value)
        case .event(.completed):
            done = true
            defer { pending = nil }
            return Output(value: pending, terminal: .completed)
        case .event(let terminal):
            done = true
            pending = nil
            return Output(terminal: terminal)
        }
    }
}
