extension Signal {
    /// Sends the first value, then completes and disposes the source
    /// (`rwatch --once`). Errors and an early completion pass through.
    public func first() -> Signal<Value> {
        let source = self
        return Signal { observer in
            source.subscribe { event in
                switch event {
                case .next(let value):
                    observer.sendNext(value)
                    observer.sendCompleted()
                case .error, .completed:
                    observer.send(event)
                }
            }
        }
    }
}
