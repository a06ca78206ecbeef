import Dispatch

/// Runs work on a serial Dispatch queue, one action at a time, in order.
public final class QueueScheduler: Scheduler {
    /// The serial queue actions run on.
    public let queue: DispatchQueue
    private static let origin = ContinuousClock.now

    /// A scheduler on a new serial queue.
    public init(label: String = "rwatch.queue-scheduler", qos: DispatchQoS = .default) {
        queue = DispatchQueue(label: label, qos: qos)
    }

    /// A scheduler on `queue`, which must be serial for events to stay in order.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    public var now: Duration { ContinuousClock.now - Self.origin }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        let cancel = ActionDisposable()
        queue.async {
            if !cancel.isDisposed { action() }
        }
        return cancel
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let cancel = ActionDisposable()
        queue.asyncAfter(deadline: .now() + delay.dispatchInterval) {
            if !cancel.isDisposed { action() }
        }
        return cancel
    }

    @discardableResult
    public func schedule(every interval: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let period = interval.dispatchInterval
        timer.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(1))
        timer.setEventHandler(handler: action)
        timer.resume()
        let box = TimerBox(timer)
        return ActionDisposable { box.timer.cancel() }
    }
}

/// Lets a `DispatchSourceTimer` be captured by a `@Sendable` closure.
private final class TimerBox: @unchecked Sendable {
    // Safety: the timer is only cancelled, which Dispatch makes thread-safe.
    let timer: any DispatchSourceTimer
    init(_ timer: any DispatchSourceTimer) { self.timer = timer }
}

extension Duration {
    /// The duration as whole nanoseconds for Dispatch, clamped at both ends.
    var dispatchInterval: DispatchTimeInterval {
        let nanoseconds = clampedNanoseconds
        return nanoseconds == Int.max / 2 ? .never : .nanoseconds(nanoseconds)
    }
}
