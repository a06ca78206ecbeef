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

extension Signal {
    /// Shows `message` as a desktop notification (`notify-send`, when it is
    /// on PATH) or else as a yellow status line with a bell, for every
    /// value, and passes the values on. Put a `throttle` before it.
    public func notify(message: String) -> Signal<Value> {
        let desktop = Notifier.desktopCommand(message)
        return map { value in
            Notifier.show(message, command: desktop)
            return value
        }
    }
}
