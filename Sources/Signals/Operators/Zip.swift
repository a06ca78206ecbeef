extension Signal {
    /// Pairs the n-th value of `a` with the n-th value of `b`.
    ///
    ///     a:       -1-2-3-|
    ///     b:       ---x---y-z-|
    ///     output:  ---p---q-(r|)     p = (1, x), q = (2, y), r = (3, z)
    ///
    /// Completes as soon as one side has completed and has no buffered
    /// values left, since no further pair can form (ReactiveCocoa's rule).
    /// An error from either side is forwarded at once. Disposing disposes
    /// both. Safe when the two send on different threads.
    @inlinable
    public static func zip<A, B>(_ a: Signal<A>, _ b: Signal<B>) -> Signal<(A, B)> where Value == (A, B) {
        // Same-shape operator boilerplate as `combineLatest` (one operator
        // per file): the two differ only in their state machine.
        Signal.drained { observer in
            let subscriptions = CompositeDisposable()
            var state = ZipState<A, B>()
            let inputs = Drain<ZipState<A, B>.Input> { _, input in
                switch state.step(input) {
                case .none: break
                case .next(let pair): observer.sendNext(pair)
                case .nextThenComplete(let pair):
                    observer.sendNext(pair)
                    observer.sendCompleted()
                case .complete: observer.sendCompleted()
                case .error(let error): observer.sendError(error)
                }
            }
            subscriptions.add(a.start({ inputs.submit(.a($0)) }))
            if !observer.isStopped {
                subscriptions.add(b.start({ inputs.submit(.b($0)) }))
            }
            return subscriptions
        }.described("zip", upstreams: [a.node, b.node])
    }

    /// Pairs this signal's values with `other`'s in order; see `Signal.zip(_:_:)`.
    @inlinable
    public func zip<Other>(_ other: Signal<Other>) -> Signal<(Value, Other)> {
        Signal<(Value, Other)>.zip(self, other)
    }
}

/// What `zip` knows: the values of each side still waiting for a partner,
/// and which sides have completed.
@usableFromInline
struct ZipState<A, B> {
    @usableFromInline
    enum Input {
        case a(Event<A>)
        case b(Event<B>)
    }

    @usableFromInline
    enum Output {
        case none
        case next((A, B))
        case nextThenComplete((A, B))
        case complete
        case error(any Error)
    }

    @usableFromInline var bufferA = FIFO<A>()
    @usableFromInline var bufferB = FIFO<B>()
    @usableFromInline var completedA = false
    @usableFromInline var completedB = false
    @usableFromInline var done = false

    @inlinable init() {}

    @inlinable
    mutating func step(_ input: Input) -> Output {
        guard !done else { return .none }
        let pair: (A, B)?
        switch input {
        case .a(.next(let value)):
            if let partner = bufferB.popFirst() { pair = (value, partner) } else {
                bufferA.append(value)
                pair = nil
            }
        case .b(.next(let value)):
            if let partner = bufferA.popFirst() { pair = (partner, value) } else {
                bufferB.append(value)
                pair = nil
            }
        case .a(.error(let error)), .b(.error(let error)):
            done = true
            return .error(error)
        case .a(.completed):
            completedA = true
            pair = nil
        case .b(.completed):
            completedB = true
            pair = nil
        }
        let exhausted = (completedA && bufferA.isEmpty) || (completedB && bufferB.isEmpty)
        if exhausted { done = true }
        switch (pair, exhausted) {
        case (let pair?, false): return .next(pair)
        case (let pair?, true): return .nextThenComplete(pair)
        case (nil, true): return .complete
        case (nil, false): return .none
        }
    }
}
