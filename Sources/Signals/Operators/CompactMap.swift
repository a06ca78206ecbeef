extension Signal {
    /// Transforms every value and lets through only the non-`nil` results.
    ///
    ///     source:  -1-x-3-|
    ///     output:  -1---3-|     compactMap { Int($0) }
    ///
    /// Errors and completion pass through; disposing disposes the source.
    /// Over a source that sends one event at a time a subscription's stage
    /// is one object, `CompactMapStage`.
    @inlinable
    public func compactMap<T>(_ transform: @escaping @Sendable (Value) -> T?) -> Signal<T> {
        Signal<T>.serial({ observer in
            guard self.serializes else {
                return self.start(for: observer, stage: CompactMapStage(observer, transform))
            }
            return self.start(for: observer, { event in
                switch event {
                case .next(let value):
                    if let result = transform(value) { observer.sendNext(result) }
                case .error(let error): observer.sendError(error)
                case .completed: observer.sendCompleted()
                }
            })
        }).described("compactMap", after: self)
    }
}

/// One subscription's `compactMap` stage: the observer of the source and
/// the handler in one object.
@usableFromInline
final class CompactMapStage<Value, T>: Observer<Value>, @unchecked Sendable {
    // Safety: both fields are constants; `receive` runs one event at a time.
    @usableFromInline let downstream: Observer<T>
    @usableFromInline let transform: (Value) -> T?

    @inlinable
    init(_ downstream: Observer<T>, _ transform: @escaping (Value) -> T?) {
        self.downstream = downstream
        self.transform = transform
        super.init(stage: { unsafeDowncast($0, to: CompactMapStage.self).receive($1) })
    }

    @inlinable
    final func receive(_ event: Event<Value>) {
        switch event {
        case .next(let value):
            if let result = transform(value) { downstream.sendNext(result) }
        case .error(let error): downstream.sendError(error)
        case .completed: downstream.sendCompleted()
        }
    }
}
