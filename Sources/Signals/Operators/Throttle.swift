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
    public func throttle(_ interval: Duration, latest: Bool = false, scheduler: some Scheduler) -> Signal<Value> {
        Signal.drained { observer in
            let timer = SerialDisposable()
            var state = ThrottleState<Value>(latest: latest)
            let inputs = Drain<ThrottleState<Value>.Input> { drain, input in
                let output = state.step(input)
                // The window starts when its value arrives: timer first.
                if let window = output.startWindow {
                    timer.disposable = scheduler.schedule(after: interval) { drain.submit(.windowEnd(window)) }
                }
                if let value = output.value { observer.sendNext(value) }
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

/// What `throttle` knows: whether a window is open, the value waiting for
/// its end (with `latest`), and which timer is current.
struct ThrottleState<Value> {
    enum Input {
        case event(Event<Value>)
        case windowEnd(Int)
    }

    struct Output {
        var value: Value?
        /// Start a timer that ends the window with this generation.
        var startWindow: Int?
        var terminal: Event<Value>?
    }

    let latest: Bool
    private var windowOpen = false
    private var pending: Value?
    private var generation = 0
    private var done = false

    init(latest: Bool) {
        self.latest = latest
    }

    mutating func step(_ input: Input) -> Output {
        guard !done else { return Output() }
        switch input {
        case .event(.next(let value)):
            if !windowOpen { return openWindow(emitting: value) }
            if latest { pending = value }
            return Output()
        case .windowEnd(let window):
            guard windowOpen, window == generation else { return Output() }
            if let value = pending {
                pending = nil
                return openWindow(emitting: value)
            }
            windowOpen = false
            return Output()
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

    private mutating func openWindow(emitting value: Value) -> Output {
        windowOpen = true
        generation += 1
        return Output(value: value, startWindow: generation)
    }
}
