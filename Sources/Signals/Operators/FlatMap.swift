extension Signal {
    /// Maps every value to a signal and merges what all of them send
    /// (RAC's `flattenMap:`, RxSwift's `flatMap`).
    ///
    ///     source:  -a---b-----|
    ///     inner a:  -1-2|            (each value's signal starts when it arrives)
    ///     inner b:      -3-4|
    ///     output:  --1-2-3-4--|
    ///
    /// Completes when the source and every inner signal have completed. The
    /// first error, from the source or any inner signal, is forwarded and
    /// disposes everything. Disposing disposes the source and every inner
    /// subscription; finished inner subscriptions are let go at once.
    @inlinable
    public func flatMap<T>(_ transform: @escaping @Sendable (Value) -> Signal<T>) -> Signal<T> {
        Signal<T> { observer in
            let subscriptions = CompositeDisposable()
            // Signals still running: the source counts as one.
            let active = Locked(1)
            @Sendable func finishOne() {
                let last = active.withLock { count in
                    count -= 1
                    return count == 0
                }
                if last { observer.sendCompleted() }
            }
            subscriptions.add(self.start({ event in
                switch event {
                case .next(let value):
                    let inner = transform(value)
                    let slot = SerialDisposable()
                    guard let key = subscriptions.add(slot) else { return }
                    active.withLock { $0 += 1 }
                    slot.disposable = inner.start({ event in
                        guard case .completed = event else { return observer.send(event) }
                        subscriptions.remove(key)
                        finishOne()
                    })
                case .error(let error): observer.sendError(error)
                case .completed: finishOne()
                }
            }))
            return subscriptions
        }.described("flatMap", after: self)
    }
}
