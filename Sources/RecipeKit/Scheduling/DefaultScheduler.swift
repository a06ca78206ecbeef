// Recipes write `.throttle(.seconds(10))`; the Signals operators keep
// requiring `scheduler:` so that their own tests stay on virtual time. These
// overloads fill in `Recipe.scheduler`; the labelled forms stay available.

extension Signal {
    /// `debounce(_:scheduler:)` on `Recipe.scheduler`: sends a value once
    /// `interval` has passed without a newer one.
    public func debounce(_ interval: Duration) -> Signal<Value> {
        debounce(interval, scheduler: Recipe.scheduler)
    }

    /// `throttle(_:latest:scheduler:)` on `Recipe.scheduler`: at most one
    /// value per `interval`.
    public func throttle(_ interval: Duration, latest: Bool = false) -> Signal<Value> {
        throttle(interval, latest: latest, scheduler: Recipe.scheduler)
    }

    /// `delay(_:scheduler:)` on `Recipe.scheduler`: every event `interval` later.
    public func delay(_ interval: Duration) -> Signal<Value> {
        delay(interval, scheduler: Recipe.scheduler)
    }

    /// `timeout(_:scheduler:)` on `Recipe.scheduler`: fails with
    /// `TimeoutError` when no event comes for `interval`.
    public func timeout(_ interval: Duration) -> Signal<Value> {
        timeout(interval, scheduler: Recipe.scheduler)
    }

    /// `buffer(timeSpan:count:scheduler:)` on `Recipe.scheduler`: the values
    /// of each `timeSpan` (or of each `count` values) as one array.
    public func buffer(timeSpan: Duration, count: Int = .max) -> Signal<[Value]> {
        buffer(timeSpan: timeSpan, count: count, scheduler: Recipe.scheduler)
    }
}

extension Timer {
    /// `interval(_:on:)` on `Recipe.scheduler`: the scheduler's time, every
    /// `interval`, the first one interval after subscribing.
    public static func interval(_ interval: Duration) -> Signal<Duration> {
        Timer.interval(interval, on: Recipe.scheduler)
    }

    /// `after(_:on:)` on `Recipe.scheduler`: one value `delay` after
    /// subscribing, then completion.
    public static func after(_ delay: Duration) -> Signal<Duration> {
        Timer.after(delay, on: Recipe.scheduler)
    }
}
