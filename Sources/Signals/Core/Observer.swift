import Synchronization

/// What a producer sends into: the receiving end of one subscription.
///
/// An observer enforces the event grammar for whoever sends into it: nothing
/// gets through after a terminal event or after the subscription is disposed,
/// and events never overlap in time, even when several threads send at once.
/// Concurrent and re-entrant sends are queued and delivered in order by the
/// thread already delivering (queue-drain); no lock is held while the handler
/// runs.
///
/// After a terminal event the observer disposes its subscription's resources,
/// as RxSwift's sinks and ReactiveCocoa's subscribers do, and lets go of its
/// handler.
///
/// Not `open`: inside Signals, the stage of a synchronous operator (`map`,
/// `filter`, `compactMap`, a `subscribe(onNext:…)` subscriber) is a subclass
/// that holds what its handler needs, so that a stage allocates one object
/// instead of an observer and a closure context (see `init(stage:next:)`).
public class Observer<Value>: ObserverProtocol, @unchecked Sendable {
    // Safety:
    // - `handler` and `terminated` are touched only by the thread that holds
    //   the drain of `serial`. Observers without `serial` ("trusted": fed by
    //   library code that already delivers one event at a time) never mutate
    //   them after init, except `terminated`, which they replace by `stopped`.
    // - `inner` and `upstream` are each written once before `linkState`
    //   gains their bit, and read only by the one caller whose `bitwiseOr`
    //   completes the pair with `disposedBit` (RxSwift's SinkDisposer).
    // - The `@exclusivity(unchecked)` fields follow these rules, so the
    //   runtime's dynamic exclusivity checks (a third of the cost of a send)
    //   would only repeat them.
    @usableFromInline @exclusivity(unchecked) final var handler: ((Event<Value>) -> Void)?
    // The handler of a trusted observer, which never changes: read from a
    // `let`, a call needs no retain of the closure context.
    @usableFromInline final let trustedHandler: ((Event<Value>) -> Void)?
    // The handler of a stage (a subclass that is its own handler): a closure
    // that captures nothing, so it costs no allocation, and that is handed
    // the observer itself. Made where the types are concrete, so the call
    // reaches specialized code (a class method would be dispatched to the
    // unspecialized generic body: 40 times slower per event).
    @usableFromInline final let stageHandler: ((Observer<Value>, Event<Value>) -> Void)?
    // A trusted observer made by `subscribe(onNext:…)`: values sent with
    // `sendNextFromSource` go straight to the subscriber's closure, without
    // an `Event` made around them and taken apart again (a third of a
    // line's cost for `ProcessSource`).
    @usableFromInline final let trustedNext: (@Sendable (Value) -> Void)?
    @usableFromInline final let serial: SerialQueue<Event<Value>?>?
    @usableFromInline @exclusivity(unchecked) final var terminated = false
    @usableFromInline final let stopped = Atomic<Bool>(false)
    @usableFromInline final let linkState = Atomic<UInt8>(0)
    @usableFromInline @exclusivity(unchecked) final var inner: (any Disposable)?
    @usableFromInline @exclusivity(unchecked) final var upstream: (any Disposable)?

    @inlinable static var innerSet: UInt8 { 1 }
    @inlinable static var upstreamSet: UInt8 { 2 }
    @inlinable static var disposedBit: UInt8 { 4 }

    /// An observer that hands every event to `handler`.
    public convenience init(_ handler: @escaping @Sendable (Event<Value>) -> Void) {
        self.init(handler: handler, serialized: true)
    }

    /// An observer with a closure per kind of event.
    public convenience init(
        next: @escaping @Sendable (Value) -> Void = { _ in },
        error: @escaping @Sendable (any Error) -> Void = { _ in },
        completed: @escaping @Sendable () -> Void = {}
    ) {
        self.init { event in
            switch event {
            case .next(let value): next(value)
            case .error(let failure): error(failure)
            case .completed: completed()
            }
        }
    }

    /// - Parameter serialized: `false` only when every sender is library code
    ///   that already delivers one event at a time (an upstream observer, a
    ///   subject's drain); then sends skip the queue.
    /// - Parameter next: what `handler` does with a value, when that is all
    ///   it does with one; trusted observers then call it directly.
    @inlinable
    init(handler: @escaping (Event<Value>) -> Void, serialized: Bool, next: (@Sendable (Value) -> Void)? = nil) {
        self.handler = serialized ? handler : nil
        self.trustedHandler = serialized ? nil : handler
        self.stageHandler = nil
        self.trustedNext = serialized ? nil : next
        self.serial = serialized ? SerialQueue() : nil
    }

    /// A trusted observer that is a stage's one object: `handler` receives
    /// this observer (the subclass, to downcast) with each event and must
    /// capture nothing. `next` is what it does with a value, when that is
    /// all it does with one (see `init(handler:serialized:next:)`).
    @inlinable
    init(stage handler: @escaping (Observer<Value>, Event<Value>) -> Void, next: (@Sendable (Value) -> Void)? = nil) {
        self.handler = nil
        trustedHandler = nil
        stageHandler = handler
        trustedNext = next
        serial = nil
    }

    /// True once a terminal event went through or the subscription was
    /// disposed. A producer that loops can stop early when it sees this.
    public final var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Sends one event to the handler, unless the observer has stopped.
    @inlinable
    public final func send(_ event: Event<Value>) {
        if stopped.load(ordering: .relaxed) { return }
        if let serial {
            serial.submit(event) { deliverSerialized($0) }
        } else {
            deliverTrusted(event)
        }
    }

    /// `sendNext` for the hot loop of a source in this package (process
    /// output, tail): a subscriber made with `subscribe(onNext:…)` gets the
    /// value directly. Not used by operators: as the one `sendNext` of
    /// every hop it made a map/filter chain slower (less inlining).
    @inlinable
    package final func sendNextFromSource(_ value: Value) {
        // Called through the stored property rather than bound with
        // `if let`, which would retain the closure's context per value.
        guard trustedNext != nil else { return send(.next(value)) }
        if stopped.load(ordering: .relaxed) { return }
        trustedNext?(value)
    }

    @inlinable @inline(__always)
    final func deliverTrusted(_ event: Event<Value>) {
        if event.isTerminal, stopped.exchange(true, ordering: .acquiringAndReleasing) { return }
        // Called through the stored property rather than bound with
        // `if let`, which would retain the closure's context per event.
        if stageHandler == nil { trustedHandler?(event) } else { stageHandler?(self, event) }
        if event.isTerminal { disposeInner() }
    }

    /// Runs inside the drain. `nil` is the request to let go of the handler.
    @inlinable
    final func deliverSerialized(_ item: Event<Value>?) {
        guard let event = item else {
            handler = nil
            return
        }
        if terminated || stopped.load(ordering: .acquiring) { return }
        if event.isTerminal {
            terminated = true
            stopped.store(true, ordering: .releasing)
        }
        handler?(event)
        if event.isTerminal {
            handler = nil
            disposeInner()
        }
    }

    // MARK: Subscription

    /// Hands the observer the disposable its producer returned. If the
    /// subscription ended in the meantime (a synchronous terminal event or a
    /// dispose from the handler), it is disposed at once.
    @inlinable @inline(__always)
    final func attach(_ disposable: any Disposable) {
        inner = disposable
        if linkState.bitwiseOr(Self.innerSet, ordering: .acquiringAndReleasing).oldValue & Self.disposedBit != 0 {
            inner = nil
            disposable.dispose()
        }
    }

    /// Links the subscription an operator made upstream *before* that
    /// upstream producer runs, so that when this observer stops (terminal
    /// event or dispose) the upstream stops too, even while a synchronous
    /// producer is still inside its loop (`Signal.from(1...).take(3)`).
    /// Call at most once per observer.
    @inlinable @inline(__always)
    final func link(_ disposable: any Disposable) {
        upstream = disposable
        if linkState.bitwiseOr(Self.upstreamSet, ordering: .acquiringAndReleasing).oldValue & Self.disposedBit != 0 {
            upstream = nil
            disposable.dispose()
        }
    }

    /// Stops delivery at once and disposes what the producer returned.
    @inlinable
    final func dispose() {
        if stopped.exchange(true, ordering: .acquiringAndReleasing) == false, let serial {
            // Let go of the handler (and what it captured) once any delivery
            // in progress has finished.
            serial.submit(nil) { deliverSerialized($0) }
        }
        disposeInner()
    }

    @inlinable
    final func disposeInner() {
        let previous = linkState.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
        guard previous & Self.disposedBit == 0 else { return }
        if previous & Self.upstreamSet != 0 {
            let disposable = upstream
            upstream = nil
            disposable?.dispose()
        }
        if previous & Self.innerSet != 0 {
            let disposable = inner
            inner = nil
            disposable?.dispose()
        }
    }

    @inlinable
    final var isDisposed: Bool { linkState.load(ordering: .acquiring) & Self.disposedBit != 0 }
}

/// An internal subscription (what `start` returns): disposing it stops the
/// observer and disposes what the producer returned. A struct of one
/// reference, so boxing it as `any Disposable` allocates nothing. Whoever
/// holds it (an operator's state, an observer's link) drops it on dispose.
@usableFromInline
struct Subscription<Value>: Disposable {
    @usableFromInline let observer: Observer<Value>

    @inlinable init(observer: Observer<Value>) { self.observer = observer }

    @inlinable func dispose() { observer.dispose() }
    @inlinable var isDisposed: Bool { observer.isDisposed }
}

/// A subscription as the `any Disposable` that an operator's observer links
/// to, or a public handle holds: the observer and a function, made where
/// `Value` is concrete and capturing nothing, that disposes it or reads its
/// state. Disposing a chain then runs specialized code at every stage;
/// through `Subscription`'s witness, which is generic, each stage ran the
/// unspecialized `dispose` and looked up type metadata (a third of the cost
/// of building, subscribing and disposing a 12-stage chain). Three words, so
/// boxing it as `any Disposable` allocates nothing.
@usableFromInline
struct ObserverLink: Disposable {
    @usableFromInline let observer: any AnyObject & Sendable
    @usableFromInline let operation: @Sendable (any AnyObject & Sendable, _ dispose: Bool) -> Bool

    @inlinable
    init<Value>(_ observer: Observer<Value>) {
        self.observer = observer
        operation = { observer, dispose in
            let observer = unsafeDowncast(observer, to: Observer<Value>.self)
            if dispose { observer.dispose() }
            return observer.isDisposed
        }
    }

    @inlinable func dispose() { _ = operation(observer, true) }
    @inlinable var isDisposed: Bool { operation(observer, false) }
}

/// The disposable a public `subscribe` returns. Unlike `Subscription` it
/// lets go of the observer (and so of the handler and what it captured) when
/// disposed, even while the caller keeps the handle. A struct around one
/// lock box: one allocation, and none to box it as `any Disposable`.
@usableFromInline
struct SubscriptionHandle: Disposable {
    @usableFromInline let subscription: Locked<(any Disposable)?>

    @inlinable
    init(_ subscription: some Disposable) {
        self.subscription = Locked(subscription)
    }

    @inlinable
    func dispose() {
        let subscription = self.subscription.withLock { subscription in
            defer { subscription = nil }
            return subscription
        }
        subscription?.dispose()
    }

    @inlinable
    var isDisposed: Bool { subscription.withLock { $0?.isDisposed ?? true } }
}
