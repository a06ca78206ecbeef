extension Recipe {
    /// The scheduler that time-based operators use in a recipe when none is
    /// given (`debounce(_:)`, `throttle(_:latest:)`, `delay(_:)`,
    /// `timeout(_:)`, `buffer(timeSpan:count:)`, `Timer.interval(_:)`,
    /// `Timer.after(_:)`): one serial queue of rwatch's own, so that timer
    /// callbacks never overlap one another. Pass `scheduler:` to choose
    /// another (a `TestScheduler` in a test, say).
    public static let scheduler = QueueScheduler(label: "rwatch.recipe")
}
