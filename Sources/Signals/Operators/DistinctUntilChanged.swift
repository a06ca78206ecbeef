extension Signal {
    /// Drops values equal to the one emitted just before.
    ///
    ///     source:  -a-a-b-a-a-|
    ///     output:  -a---b-a---|
    ///
    /// Errors and completion pass through; disposing disposes the source.
    @inlinable
    public func distinctUntilChanged() -> Signal<Value> where Value: Equatable & SendableMetatype {
        Signal.serial({ observer in
            var last: Value?
            return self.start(for: observer, { event in
                if case .next(let value) = event {
                    if let last, last == value { return }
                    last = value
                }
                observer.send(event)
            })
        }).described("distinctUntilChanged", after: self)
    }

    /// Drops values whose `key` equals the key of the value emitted just
    /// before (e.g. `distinctUntilChanged(by: \.path)`).
    ///
    ///     source:  -a-A-b-B-|
    ///     output:  -a---b---|     distinctUntilChanged(by: { $0.lowercased() })
    ///
    /// Errors and completion pass through; disposing disposes the source.
    @inlinable
    public func distinctUntilChanged<Key: Equatable & SendableMetatype>(
        by key: @escaping @Sendable (Value) -> Key
    ) -> Signal<Value> {
        Signal.serial({ observer in
            var last: Key?
            return self.start(for: observer, { event in
                if case .next(let value) = event {
                    let current = key(value)
                    if let last, last == current { return }
                    last = current
                }
                observer.send(event)
            })
        }).described("distinctUntilChanged", after: self)
    }
}
