extension Signal {
    /// Turns every event, terminal ones included, into a value; the result
    /// completes right after the source's terminal event.
    ///
    ///     source:  -1-2-#
    ///     output:  -a-b-(c|)     a = next(1), b = next(2), c = error
    ///
    /// Useful to log or test a signal's whole grammar, or to keep an error
    /// from ending a chain. Disposing disposes the source.
    @inlinable
    public func materialize() -> Signal<Event<Value>> {
        Signal<Event<Value>>.serial({ observer in
            self.start(for: observer, { event in
                observer.sendNext(event)
                if event.isTerminal { observer.sendCompleted() }
            })
        }).described("materialize", after: self)
    }
}
