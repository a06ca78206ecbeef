extension Signal where Value: RunTrigger {
    /// Runs `arguments` (e.g. `["notify-send", "errors in the log"]`) for
    /// every value, dropping values that arrive while it runs, without
    /// status lines, and passes the values on. Put a `throttle` before it
    /// to notify at most once per interval. Completes with this signal.
    public func notify(_ arguments: [String]) -> Signal<Value> {
        let source = self
        let quiet = RunOptions(statusLines: false)
        let world = RecipeWorld.current
        // One subscription: the notifier gets each value as it passes, so
        // nothing can reach the pass-through and miss the notifier (two
        // subscriptions to a shared source did: a value sent between them).
        return Signal { observer in
            let words = arguments.map { CommandWord($0) }
            // A notification's words are its text: no placeholder in them.
            let template = CommandTemplate(plain: words)
            let action = CommandAction<Value>(
                template: template, policy: .ignore, options: quiet, scheduler: world.scheduler, world: world, observer: Observer { _ in }
            )
            let upstream = source.subscribe { event in
                switch event {
                case .next(let value): action.receive(value)
                case .error, .completed: action.complete()
                }
                observer.send(event)
            }
            return ActionDisposable {
                upstream.dispose()
                action.dispose()
            }
        }.described("notify", [SignalNode.list(arguments)], after: self)
    }
}

extension Signal {
    /// Shows `message` as a desktop notification (`notify-send`, when it is
    /// on PATH) or else as a yellow status line with a bell, for every
    /// value, and passes the values on. Put a `throttle` before it.
    public func notify(message: String) -> Signal<Value> {
        let output = RecipeWorld.current.output
        return map { value in
            output.notify(message)
            return value
        }.described("notify", ["message: " + SignalNode.quoted(message)], after: self)
    }
}
