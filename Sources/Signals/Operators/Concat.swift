extension Signal {
    /// Plays the signals one after another: subscribes to the next only when
    /// the previous has completed (RAC's `concat:`).
    ///
    ///     a:       -1-2|
    ///     b:           -3-|
    ///     output:  -1-2-3-|
    ///
    /// An error ends it at once. Disposing disposes the signal playing now;
    /// later ones are never subscribed. Long chains of synchronous signals
    /// are played in a loop, not by recursion.
    @inlinable
    public static func concat(_ signals: [Signal<Value>]) -> Signal<Value> {
        Signal { observer in
            let current = SerialDisposable()
            var next = 0
            // Each request subscribes to the next signal. A signal that
            // completes synchronously only queues the next request.
            let requests = Drain<Void> { drain, _ in
                guard !observer.isStopped else { return }
                guard next < signals.count else { return observer.sendCompleted() }
                let signal = signals[next]
                next += 1
                current.disposable = signal.start({ event in
                    if case .completed = event {
                        drain.submit(())
                    } else {
                        observer.send(event)
                    }
                })
            }
            requests.submit(())
            return current
        }.described("concat", upstreams: signals.map(\.node))
    }

    /// Plays the signals one after another; see `concat(_:)`.
    @inlinable
    public static func concat(_ signals: Signal<Value>...) -> Signal<Value> {
        concat(signals)
    }

    /// Plays `other` after this signal completes; see `Signal.concat(_:)`.
    @inlinable
    public func concat(_ other: Signal<Value>) -> Signal<Value> {
        Signal.concat([self, other])
    }
}
