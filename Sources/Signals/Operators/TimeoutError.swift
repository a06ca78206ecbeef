/// The error `timeout(_:scheduler:)` ends a signal with when no value came
/// in time.
public struct TimeoutError: Error, Equatable, Sendable, CustomStringConvertible {
    /// How long the signal was allowed to stay silent.
    public let interval: Duration

    /// A timeout after `interval` of silence.
    public init(interval: Duration) {
        self.interval = interval
    }

    public var description: String { "timed out after \(interval) without a value" }
}
