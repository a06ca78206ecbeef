/// Something that is an observer and a signal at once: what is sent into it
/// reaches its subscribers. Subjects are thread-safe and never call an
/// observer while holding a lock.
public protocol SubjectProtocol<Value>: ObserverProtocol, Sendable {
    /// The read side only, to hand out without the right to send.
    func asSignal() -> Signal<Value>
}

extension SubjectProtocol {
    /// Subscribes with one closure for every event.
    @inlinable @discardableResult
    public func subscribe(_ handler: @escaping @Sendable (Event<Value>) -> Void) -> any Disposable {
        asSignal().subscribe(handler)
    }

    /// Subscribes with a closure per kind of event, each optional.
    @inlinable @discardableResult
    public func subscribe(
        onNext: (@Sendable (Value) -> Void)? = nil,
        onError: (@Sendable (any Error) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        asSignal().subscribe(onNext: onNext, onError: onError, onCompleted: onCompleted)
    }

    /// Forwards every event into `observer`.
    @inlinable @discardableResult
    public func subscribe<O: ObserverProtocol & Sendable>(_ observer: O) -> any Disposable where O.Value == Value {
        asSignal().subscribe(observer)
    }
}
