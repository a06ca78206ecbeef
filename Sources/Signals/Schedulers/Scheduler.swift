/// Where and when work runs. Every time-based operator takes a scheduler, so
/// that tests run it on `TestScheduler`'s virtual time instead of sleeping.
///
/// Time is a `Duration` since the scheduler's own reference point; only
/// differences between two `now` readings of one scheduler mean anything.
public protocol Scheduler: Sendable {
    /// The scheduler's current time.
    var now: Duration { get }

    /// Runs `action` as soon as possible. Disposing before it runs cancels it.
    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable

    /// Runs `action` once, `delay` from now.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable

    /// Runs `action` every `interval`, the first time one interval from now,
    /// until disposed.
    @discardableResult
    func schedule(every interval: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable
}
