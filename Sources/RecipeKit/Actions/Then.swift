extension Signal where Value == RunResult {
    /// Runs `arguments` after every run that succeeded, with the same
    /// changes, and passes failed runs through untouched: a chain that stops
    /// at the first failure (`lint && build && test`, but each step a
    /// signal). Every result carries the chain's steps so far.
    ///
    ///     runs:    -ok---fail---ok--|
    ///     then:    ----r1--fail----r2-|
    ///
    /// Pending runs queue (at most one). Completes when the upstream has
    /// completed and the last run has ended.
    public func then(_ arguments: [String], options: RunOptions = RunOptions()) -> Signal<RunResult> {
        let shared = share()
        let failures = shared.filter { !$0.succeeded }
        let runs = shared.filter(\.succeeded).run(arguments, onBusy: .queue, options: options)
        return Signal.merge([failures, runs]).share()
            .described("then", [SignalNode.list(arguments)] + options.parameterLabels, after: self)
    }
}
