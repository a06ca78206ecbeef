extension Signal {
    /// Sends `value`, then completes.
    ///
    ///     just(1):  (1|)
    public static func just(_ value: Value) -> Signal<Value> where Value: Sendable {
        Signal.serial({ observer in
            observer.sendNext(value)
            observer.sendCompleted()
            return NopDisposable()
        })
    }

    /// Completes at once, without a value.
    public static func empty() -> Signal<Value> {
        Signal.serial({ observer in
            observer.sendCompleted()
            return NopDisposable()
        })
    }

    /// Never sends anything, not even completion.
    public static func never() -> Signal<Value> {
        Signal.serial({ _ in NopDisposable() })
    }

    /// Fails at once with `error`.
    public static func error(_ error: any Error) -> Signal<Value> {
        Signal.serial({ observer in
            observer.sendError(error)
            return NopDisposable()
        })
    }

    /// Sends every element of `sequence`, then completes. Disposing (or an
    /// observer that stops) ends the iteration early.
    public static func from<S: Sequence & Sendable>(_ sequence: S) -> Signal<Value> where S.Element == Value {
        Signal.serial({ observer in
            for value in sequence {
                if observer.isStopped { break }
                observer.sendNext(value)
            }
            observer.sendCompleted()
            return NopDisposable()
        })
    }

    /// Calls `factory` for every subscriber and subscribes to the signal it
    /// returns, so that the work (and its side effects) starts only then.
    public static func deferred(_ factory: @escaping @Sendable () -> Signal<Value>) -> Signal<Value> {
        Signal.serial({ observer in
            factory().start({ observer.send($0) })
        })
    }
}
