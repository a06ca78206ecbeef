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
    public func delay(_ interval: Duration, scheduler: some Scheduler) -> Signal<Value> {
        Signal.drained { observer in
            let timer = SerialDisposable()
            var delayed = FIFO<(due: Duration, event: Event<Value>)>()
            var timerRunning = false
            let inputs = Drain<DelayInput<Value>> { drain, input in
                guard !observer.isStopped else { return }
                switch input {
                case .event(.error(let error)):
                    delayed.removeAll()
                    timer.dispose()
                    return observer.sendError(error)
                case .event(let event):
                    delayed.append((scheduler.now + interval, event))
                    guard !timerRunning else { return }
                case .due:
                    let now = scheduler.now
                    while let head = delayed.first, head.due <= now, !observer.isStopped {
                        _ = delayed.popFirst()
                        observer.send(head.event)
                    }
                }
                // One timer at a time, for the oldest delayed event.
                if let head = delayed.first {
                    timerRunning = true
                    timer.disposable = scheduler.schedule(after: head.due - scheduler.now) { drain.submit(.due) }
                } else {
                    timerRunning = false
                }
            }
            let source = self.start({ inputs.submit(.event($0)) })
            return CompositeDisposable([source, timer])
        }
    }
}

/// The inputs of `delay`: the source's events and its timer.
enum DelayInput<Value> {
    case event(Event<Value>)
    case due
}
