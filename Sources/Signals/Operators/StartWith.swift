extension Signal where Value: Sendable {
    /// Emits `values` first, then everything the source sends.
    ///
    ///     source:  ---c-|
    ///     output:  (ab)--c-|     startWith("a", "b")
    ///
    /// The source is subscribed after the values went out (not at all if the
    /// subscriber stopped meanwhile). Errors and completion pass through;
    /// disposing disposes the source.
    @inlinable
    public func startWith(_ values: Value...) -> Signal<Value> {
        startWith(contentsOf: values)
    }

    /// Emits `values` first, then everything the source sends; see `startWith(_:)`.
    @inlinable
    public func startWith(contentsOf values: [Value]) -> Signal<Value> {
        Signal.serial({ observer in
            for value in values {
                if observer.isStopped { return NopDisposable() }
                observer.sendNext(value)
            }
            if observer.isStopped { return NopDisposable() }
            return self.start(for: observer, { observer.send($0) })
        }).described("startWith", ["\(values.count) values"], after: self)
    }
}
