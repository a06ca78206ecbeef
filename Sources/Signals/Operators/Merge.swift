extension Signal {
    /// Forwards the values of every signal as they arrive.
    ///
    ///     a:       -1---3---|
    ///     b:       ---2---4-----|
    ///     output:  -1-2-3-4-----|
    ///
    /// Completes when all have completed; the first error ends it and
    /// disposes the rest. Disposing disposes every source. Safe for sources
    /// that send on different threads.
    @inlinable
    public static func merge(_ signals: [Signal<Value>]) -> Signal<Value> {
        Signal { observer in
            guard !signals.isEmpty else {
                observer.sendCompleted()
                return NopDisposable()
            }
            let subscriptions = CompositeDisposable()
            observer.link(subscriptions)
            let remaining = Locked(signals.count)
            for signal in signals {
                if observer.isStopped { break }
                _ = signal.start({ event in
                    if case .completed = event {
                        let last = remaining.withLock { count in
                            count -= 1
                            return count == 0
                        }
                        if last { observer.sendCompleted() }
                    } else {
                        observer.send(event)
                    }
                }, beforeRunning: { subscriptions.add($0) })
            }
            return subscriptions
        }.described("merge", upstreams: signals.map(\.node))
    }

    /// Forwards the values of every signal as they arrive; see `merge(_:)`.
    @inlinable
    public static func merge(_ signals: Signal<Value>...) -> Signal<Value> {
        merge(signals)
    }

    /// Merges this signal with `other`; see `Signal.merge(_:)`.
    @inlinable
    public func merge(_ other: Signal<Value>) -> Signal<Value> {
        Signal.merge([self, other])
    }
}
