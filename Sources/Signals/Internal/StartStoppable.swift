extension Signal {
    /// Subscribes like `start`, and also hands the handler a `stop` function
    /// that ends this very subscription from inside the handler.
    ///
    /// Operators that end early (`take`, `takeWhile`) need it for sources
    /// that produce synchronously, before `start` has returned anything to
    /// dispose: `stop` marks the upstream observer stopped at once, so a
    /// producer looping on `isStopped` (`Signal.from(1...)`) ends its loop.
    func startStoppable(
        _ handler: @escaping (Event<Value>, _ stop: () -> Void) -> Void
    ) -> Subscription<Value> {
        weak var upstream: Observer<Value>?
        let observer = Observer<Value>(handler: { event in
            handler(event, { upstream?.dispose() })
        }, serialized: serializes)
        upstream = observer
        observer.attach(producer(observer))
        return Subscription(observer: observer)
    }
}
