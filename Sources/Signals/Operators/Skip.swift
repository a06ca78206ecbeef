extension Signal {
    /// Drops the first `count` values, then lets everything through.
    ///
    ///     source:  -a-b-c-d-|
    ///     output:  -----c-d-|     skip(2)
    ///
    /// Errors and completion pass through at once; disposing disposes the source.
    @inlinable
    public func skip(_ count: Int) -> Signal<Value> {
        guard count > 0 else { return self }
        return Signal.serial({ observer in
            var remaining = count
            return self.start(for: observer, { event in
                if case .next = event, remaining > 0 {
                    remaining -= 1
                    return
                }
                observer.send(event)
            })
        }).described("skip", ["\(count)"], after: self)
    }
}
