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
    public func timeout(_ interval: Duration, scheduler: some Scheduler) -> Signal<Value> {
        Signal.drained { observer in
            let timer = SerialDisposable()
            var generation = 0
            var done = false
            let inputs = Drain<TimeoutInput<Value>> { drain, input in
                guard !done else { return }
                switch input {
                case .start, .event(.next):
                    generation += 1
                    let tag = generation
                    if case .event(let event) = input { observer.send(event) }
                    timer.disposable = scheduler.schedule(after: interval) { drain.submit(.due(tag)) }
                case .event(let terminal):
                    done = true
                    timer.dispose()
                    observer.send(terminal)
                case .due(let tag):
                    guard tag == generation else { return }
                    done = true
                    observer.sendError(TimeoutError(interval: interval))
                }
            }
            inputs.submit(.start)
            let source = self.start({ inputs.submit(.event($0)) })
            return CompositeDisposable([source, timer])
        }
    }
}

/// The inputs of `timeout`: the subscription, the source's events and the timer.
enum TimeoutInput<Value> {
    case start
    case event(Event<Value>)
    case due(Int)
}
