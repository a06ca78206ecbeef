extension Signal {
    /// Folds every value into an accumulator and emits each intermediate
    /// result (RxSwift's `scan`, RAC's `scanWithStart:reduce:`).
    ///
    ///     source:  -1-2-3-|
    ///     output:  -1-3-6-|     scan(0, +)
    ///
    /// Each subscription starts again from `initial`. Errors and completion
    /// pass through; disposing disposes the source.
    @inlinable
    public func scan<Result: Sendable>(
        _ initial: Result, _ accumulate: @escaping @Sendable (Result, Value) -> Result
    ) -> Signal<Result> {
        Signal<Result>.serial({ observer in
            var accumulator = initial
            return self.start(for: observer, { event in
                switch event {
                case .next(let value):
                    accumulator = accumulate(accumulator, value)
                    observer.sendNext(accumulator)
                case .error(let error): observer.sendError(error)
                case .completed: observer.sendCompleted()
                }
            })
        }).described("scan", after: self)
    }
}
