extension Signal {
    /// Transforms every value.
    ///
    ///     source:  -1-2-3-|
    ///     output:  -2-4-6-|     map { $0 * 2 }
    ///
    /// Errors and completion pass through; disposing disposes the source.
    /// Over a source that sends one event at a time (a subject, another
    /// operator) a subscription's stage is one object, `MapStage`.
    @inlinable
    public func map<T>(_ transform: @escaping @Sendable (Value) -> T) -> Signal<T> {
        Signal<T>.serial({ observer in
            guard self.serializes else {
                return self.start(for: observer, stage: MapStage(observer, transform))
            }
            return self.start(for: observer) { event in
                switch event {
                case .next(let value): observer.sendNext(transform(value))
                case .error(let error): observer.sendError(error)
                case .completed: observer.sendCompleted()
                }
            }
        })
    }
}

/// One subscription's `map` stage: the observer of the source and the
/// handler in one object.
@usableFromInline
final class MapStage<Value, T>: Observer<Value>, @unchecked Sendable {
    // Safety: both fields are constants; `receive` runs one event at a time.
    @usableFromInline let downstream: Observer<T>
    @usableFromInline let transform: (Value) -> T

    @inlinable
    init(_ downstream: Observer<T>, _ transform: @escaping (Value) -> T) {
        self.downstream = downstream
        self.transform = transform
        super.init(stage: { unsafeDowncast($0, to: MapStage.self).receive($1) })
    }

    @inlinable
    final func receive(_ event: Event<Value>) {
        switch event {
        case .next(let value): downstream.sendNext(transform(value))
        case .error(let error): downstream.sendError(error)
        case .completed: downstream.sendCompleted()
        }
    }
}
