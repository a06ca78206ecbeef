// Recipes write `.throttle(.seconds(10))`; the Signals operators keep
// requiring `scheduler:` so that their own tests stay on virtual time. These
// overloads fill in `QueueScheduler.recipe`; the labelled forms stay available.

extension Signal {
    /// `debounce(_:scheduler:)` on `QueueScheduler.recipe`: sends a value once
    /// `interval` has passed without a newer one.
    public func debounce(_ interval: Duration) -> Signal<Value> {
        debounce(interval, scheduler: QueueScheduler.recipe)
    }

    /// `debounce(_:maxWait:scheduler:)` on `QueueScheduler.recipe`: sends
    /// the last value once `interval` has passed without a newer one, or
    /// `maxWait` after the first of a burst.
    public func debounce(_ interval: Duration, maxWait: Duration) -> Signal<Value> {
        debounce(interval, maxWait: maxWait, scheduler: QueueScheduler.recipe)
    }

    /// `throttle(_:latest:scheduler:)` on `QueueScheduler.recipe`: at most one
    /// value per `interval`.
    public func throttle(_ interval: Duration, latest: Bool = false) -> Signal<Value> {
        throttle(interval, latest: latest, scheduler: QueueScheduler.recipe)
    }

    /// `delay(_:scheduler:)` on `QueueScheduler.recipe`: every event `interval` later.
    public func delay(_ interval: Duration) -> Signal<Value> {
        delay(interval, scheduler: QueueScheduler.recipe)
    }

    /// `timeout(_:scheduler:)` on `QueueScheduler.recipe`: fails with
    /// `TimeoutError` when no event comes for `interval`.
    public func timeout(_ interval: Duration) -> Signal<Value> {
        timeout(interval, scheduler: QueueScheduler.recipe)
    }

    /// `buffer(timeSpan:count:scheduler:)` on `QueueScheduler.recipe`: the values
    /// of each `timeSpan` (or of each `count` values) as one array.
    public func buffer(timeSpan: Duration, count: Int = .max) -> Signal<[Value]> {
        buffer(timeSpan: timeSpan, count: count, scheduler: QueueScheduler.recipe)
    }
}

extension Timer {
    /// `interval(_:on:)` on `QueueScheduler.recipe`: the scheduler's time, every
    /// `interval`, the first one interval after subscribing.
    public static func interval(_ interval: Duration) -> Signal<Duration> {
        Timer.interval(interval, on: QueueScheduler.recipe)
    }

    /// `after(_:on:)` on `QueueScheduler.recipe`: one value `delay` after
    /// subscribing, then completion.
    public static func after(_ delay: Duration) -> Signal<Duration> {
        Timer.after(delay, on: QueueScheduler.recipe)
    }
}
