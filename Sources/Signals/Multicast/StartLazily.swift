extension Signal {
    /// Runs `block` once, on `scheduler`, when the first subscriber arrives,
    /// and replays everything it sends to every subscriber, then and later
    /// (`+[RACSignal startLazilyWithScheduler:block:]`).
    @inlinable
    public static func startLazily(
        on scheduler: some Scheduler,
        _ block: @escaping @Sendable (Observer<Value>) -> Void
    ) -> Signal<Value> {
        let connection = Signal { observer in
            block(observer)
            return NopDisposable()
        }.multicast(ReplaySubject(capacity: .max))
        return Signal.serial({ observer in
            let subscription = connection.signal.start(for: observer) { observer.send($0) }
            connection.connect()
            return subscription
        }).subscribe(on: scheduler)
    }

    /// Runs `block` once, on `scheduler`, right away, and replays everything
    /// it sends to every subscriber (`+startEagerlyWithScheduler:block:`).
    @inlinable
    public static func startEagerly(
        on scheduler: some Scheduler,
        _ block: @escaping @Sendable (Observer<Value>) -> Void
    ) -> Signal<Value> {
        let signal = startLazily(on: scheduler, block)
        signal.subscribe { _ in }
        return signal
    }
}
