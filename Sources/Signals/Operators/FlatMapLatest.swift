extension Signal {
    /// Maps every value to a signal and forwards only the newest one: a new
    /// value disposes the previous inner subscription (RAC's
    /// `flattenMap` + `switchToLatest`, RxSwift's `flatMapLatest`).
    ///
    ///     source:  -a---b-------|
    ///     inner a:  -1-2-3|          (disposed when b arrives)
    ///     inner b:      -4-5|
    ///     output:  --1-2-4-5----|
    ///
    /// Completes when the source and the current inner signal have both
    /// completed. An error from either is forwarded and disposes everything.
    /// Disposing disposes the source and the current inner subscription.
    /// A value the old inner sends on another thread while the switch
    /// happens is dropped, never forwarded after the new inner's values.
    @inlinable
    public func flatMapLatest<T>(_ transform: @escaping @Sendable (Value) -> Signal<T>) -> Signal<T> {
        Signal<T>.drained { observer in
            let source = SerialDisposable()
            let current = SerialDisposable()
            var state = FlatMapLatestState()
            let inputs = Drain<FlatMapLatestInput<Value, T>> { drain, input in
                let action = state.step(input)
                switch action {
                case .none: break
                case .forward(let event): observer.send(event)
                case .complete: observer.sendCompleted()
                case .error(let error): observer.sendError(error)
                }
                if case .outer(.next(let value)) = input, !observer.isStopped {
                    let generation = state.generation
                    current.disposable = transform(value).start({ event in
                        drain.submit(.inner(generation, event))
                    })
                }
            }
            source.disposable = self.start({ inputs.submit(.outer($0)) })
            return CompositeDisposable([source, current])
        }.described("flatMapLatest", after: self)
    }
}

/// The inputs of `flatMapLatest`: the source's events and the events of an
/// inner signal, tagged with the generation that started it.
@usableFromInline
enum FlatMapLatestInput<Value, T> {
    case outer(Event<Value>)
    case inner(Int, Event<T>)
}

/// What `flatMapLatest` knows: which inner signal is current, and what has
/// completed.
@usableFromInline
struct FlatMapLatestState {
    @usableFromInline
    enum Output<T> {
        case none
        case forward(Event<T>)
        case complete
        case error(any Error)
    }

    @usableFromInline var generation = 0
    @usableFromInline var innerActive = false
    @usableFromInline var outerCompleted = false
    @usableFromInline var done = false

    @inlinable init() {}

    @inlinable
    mutating func step<Value, T>(_ input: FlatMapLatestInput<Value, T>) -> Output<T> {
        guard !done else { return .none }
        switch input {
        case .outer(.next):
            generation += 1
            innerActive = true
            return .none
        case .outer(.error(let error)):
            done = true
            return .error(error)
        case .outer(.completed):
            outerCompleted = true
            if !innerActive { done = true }
            return done ? .complete : .none
        case .inner(let tag, let event):
            // Whatever a replaced inner signal sent while it was being
            // disposed on another thread is dropped.
            guard tag == generation else { return .none }
            switch event {
            case .next: break
            case .error(let error):
                done = true
                return .error(error)
            case .completed:
                innerActive = false
                if outerCompleted { done = true }
                return done ? .complete : .none
            }
            return .forward(event)
        }
    }
}
