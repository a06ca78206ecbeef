extension Signal {
    /// Emits the first `count` values, then completes and disposes the source.
    ///
    ///     source:  -a-b-c-d-|
    ///     output:  -a-(b|)     take(2)
    ///
    /// Completes at once when `count` is zero or less, without subscribing.
    /// Errors and an earlier completion pass through. Works on synchronous
    /// infinite sources (`Signal.from(1...).take(3)`).
    @inlinable
    public func take(_ count: Int) -> Signal<Value> {
        guard count > 0 else { return .empty() }
        return Signal.serial({ observer in
            var remaining = count
            return self.start(for: observer, { event in
                guard case .next = event else { return observer.send(event) }
                guard remaining > 0 else { return }
                remaining -= 1
                observer.send(event)
                if remaining == 0 {
                    observer.sendCompleted()
                }
            })
        }).described("take", ["\(count)"], after: self)
    }
}
