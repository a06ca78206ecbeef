extension Signal {
    /// Holds the source's values while `condition`'s latest value is true,
    /// and sends them all, in order, the moment it turns false; while it is
    /// false (and before it has said anything) values pass at once. What
    /// waits for a version-control operation to end, say:
    ///
    ///     source:     -a-b-c---d-|
    ///     condition:  --t---f-----
    ///     output:     -a----(bc)--d-|
    ///
    /// `condition` is subscribed first, so a value it sends at once (its
    /// current state) applies to the source's first values. Completion of
    /// the source sends what is held, then completes; an error from either
    /// side passes at once and drops it. When `condition` completes, the
    /// gate opens for good (what is held is sent). Everything held is kept
    /// until then: hold values that are cheap to keep. Disposing disposes
    /// both and drops what is held. Safe when the two send on different
    /// threads; values sent on the same thread as the condition keep their
    /// order with it.
    public func hold(while condition: Signal<Bool>) -> Signal<Value> {
        held(while: condition, start: { [$0] }, collect: { $0.append($1) }) { observer, values in
            for value in values { observer.sendNext(value) }
        }.described("hold", upstreams: [node, condition.node])
    }

    /// The same gate, sending what was held as one value: each value is
    /// added to a copy of `initial` as it arrives (as `reduce(into:_:)`
    /// does), and the batch is sent when the gate opens; while it is open,
    /// each value is sent at once as a batch of its own.
    ///
    ///     source:     -a-b-c---d-|
    ///     condition:  --t---f-----
    ///     output:     -x----y---z-|     x = [a], y = [b, c], z = [d]
    ///
    /// One value for what was held makes whatever follows take it in one
    /// step: a debounce cannot close its window half-way through it.
    public func hold<Held: Sendable>(
        while condition: Signal<Bool>, into initial: Held, _ collect: @escaping @Sendable (inout Held, Value) -> Void
    ) -> Signal<Held> {
        held(while: condition, start: { value in
            var batch = initial
            collect(&batch, value)
            return batch
        }, collect: collect) { observer, batch in
            observer.sendNext(batch)
        }.described("hold", upstreams: [node, condition.node])
    }

    /// The gate behind both forms: `send` hands a batch downstream.
    private func held<Held, Output>(
        while condition: Signal<Bool>, start: @escaping @Sendable (Value) -> Held,
        collect: @escaping @Sendable (inout Held, Value) -> Void,
        send: @escaping @Sendable (Observer<Output>, Held) -> Void
    ) -> Signal<Output> {
        Signal<Output>.drained { observer in
            var state = HoldState<Value, Held>(start: start, collect: collect)
            let inputs = Drain<HoldState<Value, Held>.Input> { _, input in
                switch state.step(input) {
                case .none:
                    break
                case .send(let batch):
                    send(observer, batch)
                case .complete(let batch):
                    if let batch { send(observer, batch) }
                    observer.sendCompleted()
                case .fail(let error):
                    observer.sendError(error)
                }
            }
            let subscriptions = CompositeDisposable()
            subscriptions.add(condition.start({ inputs.submit(.condition($0)) }))
            if !observer.isStopped {
                subscriptions.add(self.start({ inputs.submit(.value($0)) }))
            }
            return subscriptions
        }
    }
}

/// What `hold(while:)` knows: whether values pass or wait (and what has
/// been collected of those that wait), whether the condition can still
/// close the gate, or that it is over.
struct HoldState<Value, Held> {
    enum Input {
        case value(Event<Value>)
        case condition(Event<Bool>)
    }

    enum Phase {
        /// Values pass; the condition may close the gate.
        case passing
        /// The condition holds: what waits, collected (nil: nothing yet).
        case holding(Held?)
        /// The condition completed: values pass for good.
        case openForGood
        case finished
    }

    enum Action {
        case none
        /// Send this batch.
        case send(Held)
        /// Send the batch (if any), then complete.
        case complete(Held?)
        case fail(any Error)
    }

    let start: (Value) -> Held
    let collect: (inout Held, Value) -> Void
    private(set) var phase = Phase.passing

    init(start: @escaping (Value) -> Held, collect: @escaping (inout Held, Value) -> Void) {
        self.start = start
        self.collect = collect
    }

    mutating func step(_ input: Input) -> Action {
        switch (phase, input) {
        case (.finished, _):
            return .none
        case (_, .value(.error(let error))), (_, .condition(.error(let error))):
            phase = .finished
            return .fail(error)
        case (.passing, .value(.next(let value))), (.openForGood, .value(.next(let value))):
            return .send(start(value))
        case (.holding(nil), .value(.next(let value))):
            phase = .holding(start(value))
            return .none
        case (.holding(.some(var held)), .value(.next(let value))):
            // Out of `phase` first, so that the batch is uniquely referenced
            // and `collect` adds to it in place.
            phase = .finished
            collect(&held, value)
            phase = .holding(held)
            return .none
        case (.holding(let held), .value(.completed)):
            phase = .finished
            return .complete(held)
        case (_, .value(.completed)):
            phase = .finished
            return .complete(nil)
        case (.passing, .condition(.next(true))):
            phase = .holding(nil)
            return .none
        case (.holding(let held), .condition(.next(false))):
            phase = .passing
            return held.map { .send($0) } ?? .none
        case (.holding(let held), .condition(.completed)):
            phase = .openForGood
            return held.map { .send($0) } ?? .none
        case (.passing, .condition(.completed)):
            phase = .openForGood
            return .none
        case (_, .condition(.next)), (.openForGood, .condition(.completed)):
            // Already in the state asked for (nothing follows a completion).
            return .none
        }
    }
}
