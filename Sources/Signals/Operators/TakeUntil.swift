extension Signal {
    /// Forwards the source until `trigger` sends its first value, then
    /// completes and disposes both.
    ///
    ///     source:   -a-b-c-d-|
    ///     trigger:  -----x-
    ///     output:   -a-b-|
    ///
    /// An error from either side is forwarded. The trigger completing
    /// without a value changes nothing (RxSwift). Disposing disposes both.
    /// Safe when the two send on different threads.
    @inlinable
    public func takeUntil<Trigger>(_ trigger: Signal<Trigger>) -> Signal<Value> {
        Signal { observer in
            // The observer serializes the two inputs and drops whatever
            // follows the first terminal event: no state of our own.
            let subscriptions = CompositeDisposable()
            subscriptions.add(trigger.start({ event in
                switch event {
                case .next: observer.sendCompleted()
                case .error(let error): observer.sendError(error)
                case .completed: break
                }
            }))
            if !observer.isStopped {
                subscriptions.add(self.start({ observer.send($0) }))
            }
            return subscriptions
        }.described("takeUntil", upstreams: [node, trigger.node])
    }
}
