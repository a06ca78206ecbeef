extension Signal where Value: RunTrigger {
    /// Runs every command of `commands` for each value, side by side, and
    /// sends each one's result as it ends (a merge of `run`s sharing one
    /// subscription to this signal).
    public func parallel(_ commands: [[String]], onBusy: OnBusy = .queue, options: RunOptions = RunOptions()) -> Signal<RunResult> {
        let shared = share()
        return Signal<RunResult>.merge(commands.map { shared.run($0, onBusy: onBusy, options: options) }).share()
            .described("parallel", commands.map(SignalNode.list) + ["onBusy: \(onBusy.label)"] + options.parameterLabels, after: self)
    }
}
