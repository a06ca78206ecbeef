// Recipes write `.throttle(.seconds(10))`; the Signals operators keep
// requiring `scheduler:` so that their own tests stay on virtual time. These
// overloads fill in the scheduler of the world the recipe is built in
// (`RecipeWorld.current.scheduler`: `QueueScheduler.recipe` when live, a
// test's virtual clock under `RecipeTesting`); the labelled forms stay available.

extension Signal {
    /// `debounce(_:scheduler:)` on the world's scheduler: sends a value once
    /// `interval` has passed without a newer one.
    public func debounce(_ interval: Duration) -> Signal<Value> {
        debounce(interval, scheduler: RecipeWorld.current.scheduler)
    }

    /// `debounce(_:maxWait:scheduler:)` on the world's scheduler: sends
    /// the last value once `interval` has passed without a newer one, or
    /// `maxWait` after the first of a burst.
    public func debounce(_ interval: Duration, maxWait: Duration) -> Signal<Value> {
        debounce(interval, maxWait: maxWait, scheduler: RecipeWorld.current.scheduler)
    }

    /// `throttle(_:latest:scheduler:)` on the world's scheduler: at most one
    /// value per `interval`.
    public func throttle(_ interval: Duration, latest: Bool = false) -> Signal<Value> {
        throttle(interval, latest: latest, scheduler: RecipeWorld.current.scheduler)
    }

    /// `delay(_:scheduler:)` on the world's scheduler: every event `interval` later.
    public func delay(_ interval: Duration) -> Signal<Value> {
        delay(interval, scheduler: RecipeWorld.current.scheduler)
    }

    /// `timeout(_:scheduler:)` on the world's scheduler: fails with
    /// `TimeoutError` when no event comes for `interval`.
    public func timeout(_ interval: Duration) -> Signal<Value> {
        timeout(interval, scheduler: RecipeWorld.current.scheduler)
    }

    /// `buffer(timeSpan:count:scheduler:)` on the world's scheduler: the values
    /// of each `timeSpan` (or of each `count` values) as one array.
    public func buffer(timeSpan: Duration, count: Int = .max) -> Signal<[Value]> {
        buffer(timeSpan: timeSpan, count: count, scheduler: RecipeWorld.current.scheduler)
    }
}

extension Timer {
    /// `interval(_:on:)` on the world's scheduler: the scheduler's time, every
    /// `interval`, the first one interval after subscribing.
    public static func interval(_ interval: Duration) -> Signal<Duration> {
        Timer.interval(interval, on: RecipeWorld.current.scheduler)
    }

    /// `after(_:on:)` on the world's scheduler: one value `delay` after
    /// subscribing, then completion.
    public static func after(_ delay: Duration) -> Signal<Duration> {
        Timer.after(delay, on: RecipeWorld.current.scheduler)
    }
}
