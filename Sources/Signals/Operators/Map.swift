extension Signal {
    /// Transforms every value.
    ///
    ///     source:  -1-2-3-|
    ///     output:  -2-4-6-|     map { $0 * 2 }
    ///
    /// Errors and completion pass through; disposing disposes the source.
    @inlinable
    public func map<T>(_ transform: @escaping @Sendable (Value) -> T) -> Signal<T> {
        Signal<T>.serial({ observer in
            self.start(for: observer) { event in
                switch event {
                case .next(let value): observer.sendNext(transform(value))
                case .error(let error): observer.sendError(error)
                case .completed: observer.sendCompleted()
                }
            }
        })
    }
}
