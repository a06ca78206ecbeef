extension Signal {
    /// Lets through only the values for which `isIncluded` is true.
    ///
    ///     source:  -1-2-3-4-|
    ///     output:  ---2---4-|     filter { $0.isMultiple(of: 2) }
    ///
    /// Errors and completion pass through; disposing disposes the source.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value> {
        Signal.serial({ observer in
            self.start(for: observer) { event in
                if case .next(let value) = event, !isIncluded(value) { return }
                observer.send(event)
            }
        })
    }
}
