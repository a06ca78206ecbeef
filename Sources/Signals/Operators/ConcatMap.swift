extension Signal {
    /// Maps every value to a signal and plays those signals one at a time,
    /// in the order of the values: the next starts only when the current
    /// has completed (RxSwift's `concatMap`).
    ///
    ///     source:  -a-b---------|
    ///     inner a:  -1-2|
    ///     inner b:      -3-4|        (starts when a's signal completes)
    ///     output:  --1-2-3-4----|
    ///
    /// Completes when the source has completed and every queued signal has
    /// played. The first error is forwarded and disposes everything.
    /// Disposing disposes the source and the current inner subscription;
    /// queued signals are never subscribed.
    @inlinable
    public func concatMap<T>(_ transform: @escaping @Sendable (Value) -> Signal<T>) -> Signal<T> {
        Signal<T>.drained { observer in
            let source = SerialDisposable()
            let current = SerialDisposable()
            var queued = FIFO<Signal<T>>()
            var playing = false
            var sourceCompleted = false
            let inputs = Drain<ConcatMapInput<Value, T>> { drain, input in
                guard !observer.isStopped else { return }
                switch input {
                case .outer(.next(let value)):
                    queued.append(transform(value))
                case .outer(.error(let error)), .inner(.error(let error)):
                    return observer.sendError(error)
                case .outer(.completed):
                    sourceCompleted = true
                case .inner(.next(let value)):
                    return observer.sendNext(value)
                case .inner(.completed):
                    playing = false
                }
                guard !playing else { return }
                if let next = queued.popFirst() {
                    playing = true
                    current.disposable = next.start({ drain.submit(.inner($0)) })
                } else if sourceCompleted {
                    observer.sendCompleted()
                }
            }
            source.disposable = self.start({ inputs.submit(.outer($0)) })
            return CompositeDisposable([source, current])
        }.described("concatMap", after: self)
    }
}

/// The inputs of `concatMap`: the source's events and the current inner
/// signal's events.
@usableFromInline
enum ConcatMapInput<Value, T> {
    case outer(Event<Value>)
    case inner(Event<T>)
}
