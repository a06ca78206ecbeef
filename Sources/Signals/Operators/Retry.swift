extension Signal {
    /// On error, subscribes to the source again, up to `count` more times;
    /// the error of the last attempt is forwarded (RAC's `retry:`, Combine's
    /// `retry(_:)`: `retry(2)` makes at most three attempts).
    ///
    ///     source:  -a-#             (each subscription plays it again)
    ///     output:  -a--a--a-#       retry(2)
    ///
    /// Only a cold source gives anything new on a new subscription. Values
    /// and completion pass through. Disposing disposes the current attempt.
    /// A source failing synchronously is retried in a loop, not by recursion.
    @inlinable
    public func retry(_ count: Int) -> Signal<Value> {
        Signal.serial({ observer in
            let current = SerialDisposable()
            var remaining = Swift.max(0, count)
            let attempts = Drain<(any Error)?> { drain, failure in
                guard !observer.isStopped else { return }
                if let failure {
                    guard remaining > 0 else { return observer.sendError(failure) }
                    remaining -= 1
                }
                current.disposable = self.start({ event in
                    guard case .error(let error) = event else { return observer.send(event) }
                    drain.submit(error)
                })
            }
            attempts.submit(nil)
            return current
        }).described("retry", ["\(count)"], after: self)
    }
}
