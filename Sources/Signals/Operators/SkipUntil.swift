import Synchronization

extension Signal {
    /// Drops the source's values until `trigger` sends its first value, then
    /// forwards everything and disposes the trigger.
    ///
    ///     source:   -a-b-c-d-|
    ///     trigger:  ----x-
    ///     output:   -----c-d-|
    ///
    /// Errors from either side are forwarded; the source's completion ends
    /// it; the trigger completing without a value leaves the gate shut.
    /// Disposing disposes both. Safe when the two send on different threads.
    @inlinable
    public func skipUntil<Trigger>(_ trigger: Signal<Trigger>) -> Signal<Value> {
        Signal { observer in
            let gate = Gate()
            let triggerSubscription = SerialDisposable()
            triggerSubscription.disposable = trigger.start({ event in
                switch event {
                case .next:
                    gate.open()
                    triggerSubscription.dispose()
                case .error(let error): observer.sendError(error)
                case .completed: break
                }
            })
            guard !observer.isStopped else { return triggerSubscription }
            let source = self.start({ event in
                if case .next = event, !gate.isOpen { return }
                observer.send(event)
            })
            return CompositeDisposable([triggerSubscription, source])
        }.described("skipUntil", upstreams: [node, trigger.node])
    }
}

/// A flag that opens once, read on every value without a lock.
@usableFromInline
final class Gate: Sendable {
    @usableFromInline let opened = Atomic<Bool>(false)
    @inlinable init() {}
    @inlinable
    func open() { opened.store(true, ordering: .releasing) }
    @inlinable
    var isOpen: Bool { opened.load(ordering: .acquiring) }
}
