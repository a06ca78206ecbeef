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
        Signal.drained { observer in
            var state = HoldState<Value>()
            let inputs = Drain<HoldState<Value>.Input> { _, input in
                switch state.step(input) {
                case .none:
                    break
                case .send(let values):
                    for value in values { observer.sendNext(value) }
                case .sendThenComplete(let values):
                    for value in values { observer.sendNext(value) }
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

/// What `hold(while:)` knows: whether values pass or wait (and which
/// wait), whether the condition can still close the gate, or that it is over.
struct HoldState<Value> {
    enum Input {
        case value(Event<Value>)
        case condition(Event<Bool>)
    }

    enum Phase {
        /// Values pass; the condition may close the gate.
        case passing
        /// The condition holds: these values wait, oldest first.
        case holding([Value])
        /// The condition completed while open or was opened for good: values pass.
        case openForGood
        case finished
    }

    enum Action {
        case none
        case send([Value])
        case sendThenComplete([Value])
        case fail(any Error)
    }

    private(set) var phase = Phase.passing

    mutating func step(_ input: Input) -> Action {
        switch (phase, input) {
        case (.finished, _):
            return .none
        case (_, .value(.error(let error))), (_, .condition(.error(let error))):
            phase = .finished
            return .fail(error)
        case (.passing, .value(.next(let value))), (.openForGood, .value(.next(let value))):
            return .send([value])
        case (.holding(var held), .value(.next(let value))):
            // Take the payload out first, so the array is appended to in place.
            phase = .finished
            held.append(value)
            phase = .holding(held)
            return .none
        case (.holding(let held), .value(.completed)):
            phase = .finished
            return .sendThenComplete(held)
        case (_, .value(.completed)):
            phase = .finished
            return .sendThenComplete([])
        case (.passing, .condition(.next(true))):
            phase = .holding([])
            return .none
        case (.holding(let held), .condition(.next(false))), (.holding(let held), .condition(.completed)):
            phase = input.isConditionEnd ? .openForGood : .passing
            return .send(held)
        case (.passing, .condition(.completed)):
            phase = .openForGood
            return .none
        case (_, .condition(.next)), (.openForGood, .condition(.completed)):
            // Already in the state asked for (nothing follows a completion).
            return .none
        }
    }
}

extension HoldState.Input {
    /// Whether this is the condition completing.
    fileprivate var isConditionEnd: Bool {
        if case .condition(.completed) = self { return true }
        return false
    }
}
