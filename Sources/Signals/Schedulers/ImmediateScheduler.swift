/// Runs work at once on the calling thread (`RACImmediateScheduler`).
///
/// Timed work cannot be immediate: `schedule(after:)` and `schedule(every:)`
/// run on a shared background `QueueScheduler`.
public struct ImmediateScheduler: Scheduler {
    private static let timers = QueueScheduler(label: "rwatch.immediate-scheduler.timers")

    /// The immediate scheduler.
    public init() {}

    public var now: Duration { Self.timers.now }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        action()
        return NopDisposable()
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        if delay <= .zero {
            action()
            return NopDisposable()
        }
        return Self.timers.schedule(after: delay, action)
    }

    @discardableResult
    public func schedule(every interval: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        Self.timers.schedule(every: interval, action)
    }
}
