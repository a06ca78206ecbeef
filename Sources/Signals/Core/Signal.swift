/// A cold stream of events: a recipe for producing them, run anew for every
/// subscription (ReactiveCocoa's `RACDynamicSignal`, RxSwift's `Observable`).
///
///     let numbers = Signal<Int> { observer in
///         observer.sendNext(1)
///         observer.sendCompleted()
///         return ActionDisposable { }
///     }
///
/// Subscribing twice runs the closure twice: one side effect per
/// subscription. To share one run between many observers, use `share()`,
/// `publish()` or `replayLazily()`.
public struct Signal<Value>: Sendable {
    @usableFromInline
    let producer: @Sendable (Observer<Value>) -> any Disposable
    /// Whether observers of this signal must serialize sends. Library
    /// operators fed by one upstream observer deliver one event at a time
    /// already and skip that cost.
    @usableFromInline
    let serializes: Bool
    /// Set by `map` over a source that sends one event at a time: what
    /// `filter` on this signal returns instead of a stage of its own, one
    /// stage that maps and then filters (`MapFilterStage`). Made where the
    /// map's input type is known, which this signal's type cannot say.
    @usableFromInline
    let filtering: (@Sendable (_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value>)?
    /// The description of this signal (`node`), retained once and never
    /// released: a plain pointer, so that copying a signal (into every
    /// operator's closure) costs no reference counting, which would cost
    /// those closures their stack promotion where a chain is inlined.
    /// Nodes are made only inside `SignalNode.recording`, so the few that
    /// are made live as long as the process.
    @usableFromInline nonisolated(unsafe) let nodeStorage: UnsafeRawPointer?

    /// What made this signal, for a picture of its pipeline (`rwatch
    /// graph`): the operator or source and what it was given, with the
    /// nodes of its upstreams. Set when the chain is built inside
    /// `SignalNode.recording` (`described`); nil otherwise, for a signal
    /// made with `init(_:)` and for every operator over one. Never read on
    /// a value's path.
    @inlinable
    public var node: SignalNode? {
        nodeStorage.map { Unmanaged<SignalNode>.fromOpaque($0).takeUnretainedValue() }
    }

    /// A signal that runs `subscribe` for every subscriber. The closure sends
    /// into the observer, from any thread, and returns what cleans up.
    @inlinable
    public init(_ subscribe: @escaping @Sendable (Observer<Value>) -> any Disposable) {
        producer = subscribe
        serializes = true
        filtering = nil
        nodeStorage = nil
    }

    @inlinable
    init(
        producer: @escaping @Sendable (Observer<Value>) -> any Disposable, serializes: Bool,
        filtering: (@Sendable (_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value>)? = nil,
        nodeStorage: UnsafeRawPointer? = nil
    ) {
        self.producer = producer
        self.serializes = serializes
        self.filtering = filtering
        self.nodeStorage = nodeStorage
    }

    /// For producers in this package that send one event at a time (an
    /// operator forwarding from a single upstream observer or a subject's
    /// drain, a source that sends from one thread), so their observers skip
    /// the serializing queue. Several concurrent senders must use `init`.
    @inlinable
    package static func serial(_ producer: @escaping @Sendable (Observer<Value>) -> any Disposable) -> Signal<Value> {
        Signal(producer: producer, serializes: false)
    }

    /// Subscribes with one closure for every event. Returns the subscription;
    /// dropping it does not cancel it, `dispose()` does.
    @inlinable @discardableResult
    public func subscribe(_ handler: @escaping @Sendable (Event<Value>) -> Void) -> any Disposable {
        SubscriptionHandle(ObserverLink(start(handler).observer))
    }

    /// Subscribes with a closure per kind of event, each optional.
    @inlinable @discardableResult
    public func subscribe(
        onNext: (@Sendable (Value) -> Void)? = nil,
        onError: (@Sendable (any Error) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        // A source that sends one event at a time gets one object as its
        // observer and handler; it hands values straight to `onNext` when the
        // source uses `sendNextFromSource`.
        guard serializes else {
            let stage = SubscriberStage(onNext: onNext, onError: onError, onCompleted: onCompleted)
            stage.attach(producer(stage))
            return SubscriptionHandle(ObserverLink(stage))
        }
        let handler: @Sendable (Event<Value>) -> Void = { event in
            switch event {
            case .next(let value): onNext?(value)
            case .error(let error): onError?(error)
            case .completed: onCompleted?()
            }
        }
        return SubscriptionHandle(ObserverLink(start(handler).observer))
    }

    /// Forwards every event into `observer` (an `Observer`, a subject, a
    /// channel terminal).
    @inlinable @discardableResult
    public func subscribe<O: ObserverProtocol & Sendable>(_ observer: O) -> any Disposable where O.Value == Value {
        subscribe { observer.send($0) }
    }

    /// The one place a subscription starts. `handler` need not be `Sendable`
    /// for library code that keeps to one thread.
    @inlinable @inline(__always)
    func start(_ handler: @escaping (Event<Value>) -> Void) -> Subscription<Value> {
        start(handler, beforeRunning: { _ in })
    }

    /// Subscribes on behalf of `downstream`, an operator's observer: when it
    /// stops, this upstream subscription stops at once, even in the middle
    /// of a synchronous producer. The way single-input operators subscribe.
    ///
    /// Disposal flows through that link, so what this returns disposes
    /// nothing itself: a producer can return it without the chain being
    /// disposed twice on the way down.
    @inlinable @inline(__always)
    @discardableResult
    func start<T>(for downstream: Observer<T>, _ handler: @escaping (Event<Value>) -> Void) -> LinkedSubscription {
        _ = start(handler, beforeRunning: { downstream.link(ObserverLink($0.observer)) })
        return LinkedSubscription()
    }

    /// `start(for:_:)` with a stage that is its own handler (`MapStage`,
    /// `FilterStage`…): one allocation instead of an observer and a closure
    /// context. Only for a signal that does not serialize, since a stage is
    /// a trusted observer.
    @inlinable @inline(__always)
    @discardableResult
    func start<T>(for downstream: Observer<T>, stage: Observer<Value>) -> LinkedSubscription {
        assert(!serializes, "a stage observer is trusted: its source must send one event at a time")
        downstream.link(ObserverLink(stage))
        stage.attach(producer(stage))
        return LinkedSubscription()
    }

    /// Subscribes, handing the subscription to `beforeRunning` before the
    /// producer runs (to put it in a composite an operator already linked).
    @inlinable @inline(__always)
    func start(
        _ handler: @escaping (Event<Value>) -> Void,
        beforeRunning register: (Subscription<Value>) -> Void
    ) -> Subscription<Value> {
        let observer = Observer(handler: handler, serialized: serializes)
        let subscription = Subscription(observer: observer)
        register(subscription)
        observer.attach(producer(observer))
        return subscription
    }
}

/// What `start(for:)` returns: the subscription is already linked to the
/// downstream observer, which disposes it when it stops.
@usableFromInline
struct LinkedSubscription: Disposable {
    @inlinable init() {}
    @inlinable func dispose() {}
    @inlinable var isDisposed: Bool { false }
}

/// The observer `subscribe(onNext:onError:onCompleted:)` makes over a source
/// that sends one event at a time: observer and handler in one object.
@usableFromInline
final class SubscriberStage<Value>: Observer<Value>, @unchecked Sendable {
    // Safety: the fields are constants; `receive` runs one event at a time.
    @usableFromInline let onNext: (@Sendable (Value) -> Void)?
    @usableFromInline let onError: (@Sendable (any Error) -> Void)?
    @usableFromInline let onCompleted: (@Sendable () -> Void)?

    @inlinable
    init(
        onNext: (@Sendable (Value) -> Void)?,
        onError: (@Sendable (any Error) -> Void)?,
        onCompleted: (@Sendable () -> Void)?
    ) {
        self.onNext = onNext
        self.onError = onError
        self.onCompleted = onCompleted
        super.init(stage: { unsafeDowncast($0, to: SubscriberStage.self).receive($1) }, next: onNext)
    }

    @inlinable
    final func receive(_ event: Event<Value>) {
        switch event {
        case .next(let value): onNext?(value)
        case .error(let error): onError?(error)
        case .completed: onCompleted?()
        }
    }
}
