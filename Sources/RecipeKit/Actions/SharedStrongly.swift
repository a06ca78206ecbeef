extension Signal {
    /// `share()` whose subscriptions keep the shared state alive.
    ///
    /// `share()` lets go of its state when nobody holds the returned signal
    /// (its disposables reach the state weakly), and then disposing the last
    /// subscription no longer disposes the source. A recipe's pipelines are
    /// temporaries, so every subscription here holds the shared signal until
    /// it is disposed: disposing stops the commands.
    func sharedStrongly() -> Signal<Value> {
        let shared = share()
        return Signal { observer in
            let subscription = shared.subscribe(observer)
            return ActionDisposable {
                withExtendedLifetime(shared) { subscription.dispose() }
            }
        }
    }
}
