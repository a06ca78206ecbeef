extension Signal {
    /// Emits values while `predicate` holds; at the first value for which it
    /// fails, completes (without that value) and disposes the source.
    ///
    ///     source:  -1-2-5-1-|
    ///     output:  -1-2-|     takeWhile { $0 < 3 }
    ///
    /// Errors and an earlier completion pass through.
    @inlinable
    public func takeWhile(_ predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Value> {
        Signal.serial({ observer in
            var taking = true
            return self.start(for: observer, { event in
                guard taking else { return }
                if case .next(let value) = event, !predicate(value) {
                    taking = false
                    observer.sendCompleted()
                    return
                }
                observer.send(event)
            })
        }).described("takeWhile", after: self)
    }
}
