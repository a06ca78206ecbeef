extension Signal {
    /// Emits the latest value of each side whenever either sends, once both
    /// have sent at least one.
    ///
    ///     a:       -1---2-----|
    ///     b:       ---x---y-|
    ///     output:  ---p-q-r---|     p = (1, x), q = (2, x), r = (2, y)
    ///
    /// Completes when both have completed (RxSwift, Combine and RAC alike;
    /// even when one side completed without a value and no pair can form).
    /// An error from either side is forwarded at once. Disposing disposes
    /// both. Safe when the two send on different threads.
    @inlinable
    public static func combineLatest<A, B>(
        _ a: Signal<A>, _ b: Signal<B>
    ) -> Signal<(A, B)> where Value == (A, B) {
        Signal.drained { observer in
            let subscriptions = CompositeDisposable()
            var state = CombineLatestState<A, B>()
            let inputs = Drain<CombineLatestState<A, B>.Input> { _, input in
                switch state.step(input) {
                case .none: break
                case .next(let pair): observer.sendNext(pair)
                case .complete: observer.sendCompleted()
                case .error(let error): observer.sendError(error)
                }
            }
            subscriptions.add(a.start({ inputs.submit(.a($0)) }))
            if !observer.isStopped {
                subscriptions.add(b.start({ inputs.submit(.b($0)) }))
            }
            return subscriptions
        }.described("combineLatest", upstreams: [a.node, b.node])
    }

    /// Combines this signal's latest value with `other`'s; see
    /// `Signal.combineLatest(_:_:)`.
    @inlinable
    public func combineLatest<Other>(_ other: Signal<Other>) -> Signal<(Value, Other)> {
        Signal<(Value, Other)>.combineLatest(self, other)
    }
}

/// What `combineLatest` knows: each side's latest value and whether it has
/// completed.
@usableFromInline
struct CombineLatestState<A, B> {
    @usableFromInline
    enum Input {
        case a(Event<A>)
        case b(Event<B>)
    }

    @usableFromInline
    enum Output {
        case none
        case next((A, B))
        case complete
        case error(any Error)
    }

    @usableFromInline var latestA: A?
    @usableFromInline var latestB: B?
    @usableFromInline var completedA = false
    @usableFromInline var completedB = false
    @usableFromInline var done = false

    @inlinable init() {}

    @inlinable
    mutating func step(_ input: Input) -> Output {
        guard !done else { return .none }
        switch input {
        case .a(.next(let value)): latestA = value
        case .b(.next(let value)): latestB = value
        case .a(.error(let error)), .b(.error(let error)):
            done = true
            return .error(error)
        case .a(.completed):
            completedA = true
            done = completedB
            return done ? .complete : .none
        case .b(.completed):
            completedB = true
            done = completedA
            return done ? .complete : .none
        }
        guard let a = latestA, let b = latestB else { return .none }
        return .next((a, b))
    }
}
