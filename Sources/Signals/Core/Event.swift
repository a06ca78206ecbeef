/// One thing a signal tells its observers: a value, an error, or completion.
///
/// The grammar is `next* (error | completed)?`: after a terminal event an
/// observer receives nothing more, ever.
public enum Event<Value> {
    /// A value.
    case next(Value)
    /// The signal failed; nothing follows.
    case error(any Error)
    /// The signal finished; nothing follows.
    case completed

    /// Whether this event ends the signal (`error` or `completed`).
    @inlinable
    public var isTerminal: Bool {
        if case .next = self { return false }
        return true
    }

    /// The value of a `next` event, or `nil`.
    @inlinable
    public var value: Value? {
        if case .next(let value) = self { return value }
        return nil
    }

    /// The error of an `error` event, or `nil`.
    @inlinable
    public var error: (any Error)? {
        if case .error(let error) = self { return error }
        return nil
    }

    /// The same event with its value transformed; terminal events pass as they are.
    @inlinable
    public func map<T>(_ transform: (Value) throws -> T) rethrows -> Event<T> {
        switch self {
        case .next(let value): return .next(try transform(value))
        case .error(let error): return .error(error)
        case .completed: return .completed
        }
    }
}

extension Event: Sendable where Value: Sendable {}

extension Event: CustomStringConvertible {
    public var description: String {
        switch self {
        case .next(let value): return "next(\(value))"
        case .error(let error): return "error(\(error))"
        case .completed: return "completed"
        }
    }
}
