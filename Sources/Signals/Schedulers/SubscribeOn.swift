extension Signal {
    /// Subscribes to this signal (runs its side effects) on `scheduler`.
    /// Events are still delivered wherever the producer sends them; use
    /// `observe(on:)` to move delivery. Disposing before the subscription has
    /// happened cancels it.
    @inlinable
    public func subscribe(on scheduler: some Scheduler) -> Signal<Value> {
        Signal.serial({ observer in
            let subscription = SerialDisposable()
            let scheduled = scheduler.schedule {
                _ = self.start({ observer.send($0) }, beforeRunning: { subscription.disposable = $0 })
            }
            return CompositeDisposable([scheduled, subscription])
        }).described("subscribe(on:)", after: self)
    }
}
