extension Signal {
    /// Lets through only the values for which `isIncluded` is true.
    ///
    ///     source:  -1-2-3-4-|
    ///     output:  ---2---4-|     filter { $0.isMultiple(of: 2) }
    ///
    /// Errors and completion pass through; disposing disposes the source.
    /// Over a source that sends one event at a time a subscription's stage
    /// is one object, `FilterStage`; right after such a `map` it joins the
    /// map's stage instead (see `map`).
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value> {
        if let filtering { return filtering(isIncluded).described("filter", after: self) }
        return Signal.serial({ observer in
            guard self.serializes else {
                return self.start(for: observer, stage: FilterStage(observer, isIncluded))
            }
            return self.start(for: observer) { event in
                if case .next(let value) = event, !isIncluded(value) { return }
                observer.send(event)
            }
        }).described("filter", after: self)
    }
}

/// One subscription's `filter` stage: the observer of the source and the
/// handler in one object.
@usableFromInline
final class FilterStage<Value>: Observer<Value>, @unchecked Sendable {
    // Safety: both fields are constants; `receive` runs one event at a time.
    @usableFromInline let downstream: Observer<Value>
    @usableFromInline let isIncluded: (Value) -> Bool

    @inlinable
    init(_ downstream: Observer<Value>, _ isIncluded: @escaping (Value) -> Bool) {
        self.downstream = downstream
        self.isIncluded = isIncluded
        super.init(stage: { unsafeDowncast($0, to: FilterStage.self).receive($1) })
    }

    @inlinable
    final func receive(_ event: Event<Value>) {
        if case .next(let value) = event, !isIncluded(value) { return }
        downstream.send(event)
    }
}
