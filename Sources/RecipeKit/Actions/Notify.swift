extension Signal where Value: RunTrigger {
    /// Runs `arguments` (e.g. `["notify-send", "errors in the log"]`) for
    /// every value, dropping values that arrive while it runs, without
    /// status lines, and passes the values on. Put a `throttle` before it
    /// to notify at most once per interval. Completes with this signal.
    public func notify(_ arguments: [String]) -> Signal<Value> {
        let shared = share()
        let quiet = RunOptions(statusLines: false)
        return Signal { observer in
            let subscriptions = CompositeDisposable()
            subscriptions.add(shared.subscribe(observer))
            subscriptions.add(shared.run(arguments, onBusy: .ignore, options: quiet).subscribe())
            return subscriptions
        }
    }
}
