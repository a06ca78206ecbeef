extension Signal {
    /// One subscription to this signal shared by all current subscribers:
    /// the first subscriber starts it, the last one to leave disposes it, and
    /// the next subscriber after that (or after the end) starts it anew with
    /// a fresh subject (RxSwift's `share()`: publish + refcount).
    ///
    /// Subscribers see only what arrives after they subscribe.
    @inlinable
    public func share() -> Signal<Value> {
        let shared = SharedSubscription(source: self)
        return Signal.serial({ observer in shared.subscribe(observer) }).described("share", after: self)
    }
}

/// The state behind `share()`: the current generation's subject and source
/// subscription, and how many observe it.
@usableFromInline
final class SharedSubscription<Value>: Sendable {
    @usableFromInline
    final class Generation: Sendable {
        @usableFromInline let subject = PublishSubject<Value>()
        @usableFromInline let upstream = SerialDisposable()
        @inlinable init() {}
    }

    @usableFromInline
    struct State: Sendable {
        @usableFromInline var generation: Generation?
        @usableFromInline var subscribers = 0
        @inlinable init() {}
    }

    @usableFromInline let source: Signal<Value>
    @usableFromInline let state = Locked(State())

    @inlinable
    init(source: Signal<Value>) {
        self.source = source
    }

    @inlinable
    func subscribe(_ observer: Observer<Value>) -> any Disposable {
        let (generation, isNew) = state.withLock { state -> (Generation, Bool) in
            if let generation = state.generation {
                state.subscribers += 1
                return (generation, false)
            }
            let generation = Generation()
            state.generation = generation
            state.subscribers = 1
            return (generation, true)
        }
        generation.subject.asSignal().start(for: observer) { observer.send($0) }
        if isNew {
            _ = source.start({ [weak self] event in
                if event.isTerminal { self?.end(generation) }
                generation.subject.send(event)
            }, beforeRunning: { generation.upstream.disposable = $0 })
        }
        // The subject subscription is linked to `observer`; this only counts.
        // It holds the shared state strongly: the signal that made it may be
        // a temporary, and the last one to leave must still stop the source.
        return ActionDisposable {
            self.leave(generation)
        }
    }

    /// The source ended: the next subscriber starts a new generation.
    /// Nothing is left to dispose upstream.
    @inlinable
    func end(_ generation: Generation) {
        state.withLock { state in
            if state.generation === generation { state.generation = nil }
        }
    }

    @inlinable
    func leave(_ generation: Generation) {
        let last: Generation? = state.withLock { state in
            // Subscribers of an ended generation no longer count.
            guard state.generation === generation else { return nil }
            state.subscribers -= 1
            guard state.subscribers == 0 else { return nil }
            state.generation = nil
            return generation
        }
        last?.upstream.dispose()
    }
}
