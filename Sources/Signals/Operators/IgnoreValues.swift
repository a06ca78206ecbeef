extension Signal {
    /// Drops every value and forwards only completion or the error (RAC's
    /// `ignoreValues`, RxSwift's `ignoreElements`): "tell me when it is done".
    ///
    ///     source:  -a-b-c-|
    ///     output:  -------|
    ///
    /// Disposing disposes the source.
    @inlinable
    public func ignoreValues() -> Signal<Value> {
        Signal.serial({ observer in
            self.start(for: observer, { event in
                if case .next = event { return }
                observer.send(event)
            })
        }).described("ignoreValues", after: self)
    }
}
