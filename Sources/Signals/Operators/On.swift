extension Signal {
    /// Runs side effects for events as they pass, before forwarding them
    /// (RxSwift's `do`, RAC's `doNext:` / `doError:` / `doCompleted:`).
    ///
    ///     source:  -a-b-|
    ///     output:  -a-b-|     on(next: { print($0) })
    ///
    /// Each closure runs once per event per subscription, on the sending
    /// thread. Disposing disposes the source; `disposed` runs when the
    /// subscription is disposed or ends.
    @inlinable
    public func on(
        next: (@Sendable (Value) -> Void)? = nil,
        error: (@Sendable (any Error) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil,
        disposed: (@Sendable () -> Void)? = nil
    ) -> Signal<Value> {
        Signal.serial({ observer in
            let subscription = self.start(for: observer, { event in
                switch event {
                case .next(let value): next?(value)
                case .error(let failure): error?(failure)
                case .completed: completed?()
                }
                observer.send(event)
            })
            guard let disposed else { return subscription }
            return ActionDisposable {
                subscription.dispose()
                disposed()
            }
        }).described("on", after: self)
    }
}
