extension Signal {
    /// Transforms every value.
    ///
    ///     source:  -1-2-3-|
    ///     output:  -2-4-6-|     map { $0 * 2 }
    ///
    /// Errors and completion pass through; disposing disposes the source.
    /// Over a source that sends one event at a time (a subject, another
    /// operator) a subscription's stage is one object, `MapStage`, and a
    /// `filter` right after it joins that stage (`MapFilterStage`): the
    /// transform, then the predicate, once per value per subscription.
    @inlinable
    public func map<T>(_ transform: @escaping @Sendable (Value) -> T) -> Signal<T> {
        guard !serializes else {
            return Signal<T>.serial({ observer in
                self.start(for: observer) { event in
                    switch event {
                    case .next(let value): observer.sendNext(transform(value))
                    case .error(let error): observer.sendError(error)
                    case .completed: observer.sendCompleted()
                    }
                }
            }).described("map", after: self)
        }
        // A `filter` applied to this signal fuses with it into one stage.
        return Signal<T>(
            producer: { observer in self.start(for: observer, stage: MapStage(observer, transform)) },
            serializes: false,
            filtering: { isIncluded in
                Signal<T>.serial({ observer in
                    self.start(for: observer, stage: MapFilterStage(observer, transform, isIncluded))
                })
            }).described("map", after: self)
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

/// One subscription's `map` followed by `filter`, fused: the observer of the
/// source and both closures in one object, where the two operators would
/// make two stages and a link between them.
@usableFromInline
final class MapFilterStage<Value, T>: Observer<Value>, @unchecked Sendable {
    // Safety: the fields are constants; `receive` runs one event at a time.
    @usableFromInline let downstream: Observer<T>
    @usableFromInline let transform: (Value) -> T
    @usableFromInline let isIncluded: (T) -> Bool

    @inlinable
    init(_ downstream: Observer<T>, _ transform: @escaping (Value) -> T, _ isIncluded: @escaping (T) -> Bool) {
        self.downstream = downstream
        self.transform = transform
        self.isIncluded = isIncluded
        super.init(stage: { unsafeDowncast($0, to: MapFilterStage.self).receive($1) })
    }

    @inlinable
    final func receive(_ event: Event<Value>) {
        switch event {
        case .next(let value):
            let result = transform(value)
            // Stopped by the transform (a dispose from inside it): the
            // separate filter stage would have been stopped too.
            if isStopped || !isIncluded(result) { return }
            downstream.sendNext(result)
        case .error(let error): downstream.sendError(error)
        case .completed: downstream.sendCompleted()
        }
    }
}
