extension Signal {
    /// On error, switches to the signal `handler` makes from it, instead of
    /// failing (RAC's `catch:`, RxSwift's `catch`).
    ///
    ///     source:   -a-b-#
    ///     fallback:      -x-|
    ///     output:   -a-b--x-|     catchError { _ in fallback }
    ///
    /// Values and completion of the source pass through. Disposing disposes
    /// the source or the fallback, whichever runs.
    @inlinable
    public func catchError(_ handler: @escaping @Sendable (any Error) -> Signal<Value>) -> Signal<Value> {
        Signal.serial({ observer in
            let fallback = SerialDisposable()
            let source = self.start({ event in
                guard case .error(let error) = event else { return observer.send(event) }
                guard !observer.isStopped else { return }
                fallback.disposable = handler(error).start({ observer.send($0) })
            })
            return CompositeDisposable([source, fallback])
        }).described("catchError", after: self)
    }

    /// On error, emits `value` and completes instead of failing.
    ///
    ///     source:  -a-#
    ///     output:  -a-(x|)     catchError(justReturn: "x")
    @inlinable
    public func catchError(justReturn value: Value) -> Signal<Value> where Value: Sendable {
        catchError { _ in .just(value) }
    }
}
