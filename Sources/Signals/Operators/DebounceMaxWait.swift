extension Signal {
    /// A trailing debounce with a cap: emits the last value once `interval`
    /// has passed without another one, or `maxWait` after the first value of
    /// the burst, whichever comes first, so that a steady stream cannot
    /// postpone it for ever.
    ///
    ///     source:  -a-b-c-----d-e-f-g-h-i-j-|
    ///     output:  ---------c---------h-----(j|)     debounce(4 ticks, maxWait: 8 ticks)
    ///
    /// A `maxWait` shorter than `interval` counts as `interval`. Completion
    /// flushes a pending value at once, then completes. An error passes
    /// through at once and drops it. Disposing disposes the source and
    /// cancels the timer.
    @inlinable
    public func debounce(_ interval: Duration, maxWait: Duration, scheduler: some Scheduler) -> Signal<Value> {
        debounced(interval, maxWait: maxWait, flushOnError: false, scheduler: scheduler, start: { $0 }, collect: { $0 = $1 })
            .described("debounce", [interval.label, "maxWait: \(maxWait.label)"], after: self)
    }

    /// The same debounce, emitting everything the burst brought instead of
    /// its last value: each value is added to a copy of `initial` as it
    /// arrives (as `reduce(into:_:)` does), and the batch is emitted when the
    /// burst ends or `maxWait` after its first value.
    ///
    ///     source:  -a-b-c-----d-e-f-g-h-i-j-|
    ///     output:  ---------x---------y-----(z|)     x = abc, y = defgh, z = ij
    ///
    ///     events.debounce(.milliseconds(50), maxWait: .seconds(1), scheduler: s, into: ChangeBatch()) {
    ///         $0.add($1)
    ///     }
    ///
    /// Nothing is held but the batch, so `collect` decides what a long burst
    /// costs. Completion and errors send the open batch first (it records
    /// what happened), then end. Disposing disposes the source, cancels the
    /// timer and drops the open batch.
    ///
    /// `holding`, asked as the window would close, says how much longer the
    /// source is known to hold a value back (nil: nothing held): the window
    /// then stays open until that time plus `interval`, never past
    /// `maxWait`, so that the held value joins the batch.
    @inlinable
    public func debounce<Batch: Sendable>(
        _ interval: Duration, maxWait: Duration, scheduler: some Scheduler,
        into initial: Batch, holding: (@Sendable () -> Duration?)? = nil,
        _ collect: @escaping @Sendable (inout Batch, Value) -> Void
    ) -> Signal<Batch> {
        debounced(interval, maxWait: maxWait, flushOnError: true, scheduler: scheduler, holding: holding, start: { value in
            var batch = initial
            collect(&batch, value)
            return batch
        }, collect: collect).described("debounce", [interval.label, "maxWait: \(maxWait.label)"], after: self)
    }
}
