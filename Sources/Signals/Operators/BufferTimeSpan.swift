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
    public func buffer(timeSpan: Duration, count: Int = .max, scheduler: some Scheduler) -> Signal<[Value]> {
        let limit = Swift.max(1, count)
        return Signal<[Value]>.drained { observer in
            let timer = SerialDisposable()
            var buffer: [Value] = []
            var generation = 0
            var done = false
            let inputs = Drain<BufferTimeSpanInput<Value>> { drain, input in
                guard !done else { return }
                var emit = false
                switch input {
                case .start: break
                case .event(.next(let value)):
                    buffer.append(value)
                    guard buffer.count >= limit else { return }
                    emit = true
                case .due(let tag):
                    guard tag == generation else { return }
                    emit = true
                case .event(.completed):
                    done = true
                    timer.dispose()
                    let last = buffer
                    buffer = []
                    observer.sendNext(last)
                    return observer.sendCompleted()
                case .event(.error(let error)):
                    done = true
                    timer.dispose()
                    buffer = []
                    return observer.sendError(error)
                }
                // A new span starts with its own timer.
                generation += 1
                let tag = generation
                timer.disposable = scheduler.schedule(after: timeSpan) { drain.submit(.due(tag)) }
                if emit {
                    let full = buffer
                    buffer = []
                    observer.sendNext(full)
                }
            }
            inputs.submit(.start)
            let source = self.start({ inputs.submit(.event($0)) })
            return CompositeDisposable([source, timer])
        }
    }
}

/// The inputs of `buffer(timeSpan:count:scheduler:)`: the subscription, the
/// source's events and the span timer.
enum BufferTimeSpanInput<Value> {
    case start
    case event(Event<Value>)
    case due(Int)
}
