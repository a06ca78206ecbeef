extension Signal where Value: Sendable {
    /// Delivers every event on `scheduler`, in order (a serial scheduler keeps
    /// the order). After disposal, events still queued are dropped.
    @inlinable
    public func observe(on scheduler: some Scheduler) -> Signal<Value> {
        Signal { observer in
            self.subscribe { event in
                scheduler.schedule { observer.send(event) }
            }
        }.described("observe(on:)", after: self)
    }
}
