/// Anything events can be sent into: an `Observer`, a subject, a channel terminal.
public protocol ObserverProtocol<Value> {
    associatedtype Value
    /// Sends one event. After a terminal event further sends are ignored.
    func send(_ event: Event<Value>)
}

extension ObserverProtocol {
    /// Sends a value.
    @inlinable
    public func sendNext(_ value: Value) { send(.next(value)) }

    /// Ends with an error.
    @inlinable
    public func sendError(_ error: any Error) { send(.error(error)) }

    /// Ends successfully.
    @inlinable
    public func sendCompleted() { send(.completed) }
}
