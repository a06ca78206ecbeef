extension Signal {
    /// Transforms every value and lets through only the non-`nil` results.
    ///
    ///     source:  -1-x-3-|
    ///     output:  -1---3-|     compactMap { Int($0) }
    ///
    /// Errors and completion pass through; disposing disposes the source.
    @inlinable
    public func compactMap<T>(_ transform: @escaping @Sendable (Value) -> T?) -> Signal<T> {
        Signal<T>.serial({ observer in
            self.start(for: observer, { event in
                switch event {
                case .next(let value):
                    if let result = transform(value) { observer.sendNext(result) }
                case .error(let error): observer.sendError(error)
                case .completed: observer.sendCompleted()
                }
            })
        })
    }
}
