extension Signal {
    /// Sends `value`, then completes.
    ///
    ///     just(1):  (1|)
    @inlinable
    public static func just(_ value: Value) -> Signal<Value> where Value: Sendable {
        Signal.serial({ observer in
            observer.sendNext(value)
            observer.sendCompleted()
            return NopDisposable()
        })
    }

    /// Completes at once, without a value.
    @inlinable
    public static func empty() -> Signal<Value> {
        Signal.serial({ observer in
            observer.sendCompleted()
            return NopDisposable()
        })
    }

    /// Never sends anything, not even completion.
    @inlinable
    public static func never() -> Signal<Value> {
        Signal.serial({ _ in NopDisposable() })
    }

    /// Fails at once with `error`.
    @inlinable
    public static func error(_ error: any Error) -> Signal<Value> {
        Signal.serial({ observer in
            observer.sendError(error)
            return NopDisposable()
        })
    }

    /// Sends every element of `sequence`, then completes. Each subscription
    /// iterates anew; disposing (or a downstream that stops) ends the
    /// iteration early, so an endless sequence is fine with `take`.
    @inlinable
    public static func from<S: Sequence>(_ sequence: S) -> Signal<Value> where S.Element == Value {
        let iterate = UncheckedIteration(sequence)
        return Signal.serial({ observer in
            let iterator = iterate.makeIterator()
            while !observer.isStopped, let value = iterator.next() {
                observer.sendNext(value)
            }
            observer.sendCompleted()
            return NopDisposable()
        })
    }

    /// Calls `factory` for every subscriber and subscribes to the signal it
    /// returns, so that the work (and its side effects) starts only then.
    @inlinable
    public static func deferred(_ factory: @escaping @Sendable () -> Signal<Value>) -> Signal<Value> {
        Signal.serial({ observer in
            factory().start(for: observer) { observer.send($0) }
        })
    }
}

/// Carries any sequence into a producer closure, type-erased.
@usableFromInline
struct UncheckedIteration<Value>: @unchecked Sendable {
    // Safety: the producer only calls `makeIterator()` on its own copy of a
    // value; like RxSwift's `from`, a sequence that shares mutable state
    // between its copies is the caller's to synchronize.
    @usableFromInline let makeIterator: () -> AnyIterator<Value>
    @inlinable
    init<S: Sequence>(_ sequence: S) where S.Element == Value {
        makeIterator = { AnyIterator(sequence.makeIterator()) }
    }
}
