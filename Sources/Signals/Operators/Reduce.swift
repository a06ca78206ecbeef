extension Signal {
    /// Folds every value into an accumulator and emits only the final
    /// result, when the source completes.
    ///
    ///     source:  -1-2-3-|
    ///     output:  -------(6|)     reduce(0, +)
    ///
    /// An empty source gives `initial`. An error is forwarded and nothing
    /// else is emitted; disposing disposes the source.
    @inlinable
    public func reduce<Result: Sendable>(
        _ initial: Result, _ accumulate: @escaping @Sendable (Result, Value) -> Result
    ) -> Signal<Result> {
        // Same-shape operator boilerplate as `scan` (one operator per
        // file): only what is sent, and when, differs.
        Signal<Result>.serial({ observer in
            var accumulator = initial
            return self.start(for: observer, { event in
                switch event {
                case .next(let value):
                    accumulator = accumulate(accumulator, value)
                case .error(let error):
                    observer.sendError(error)
                case .completed:
                    observer.sendNext(accumulator)
                    observer.sendCompleted()
                }
            })
        }).described("reduce", after: self)
    }
}
