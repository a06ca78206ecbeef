import Signals

/// Time as a signal source.
public enum Timer {
    /// Sends the scheduler's time every `interval`, the first one interval
    /// after subscribing, until disposed.
    ///
    ///     Timer.interval(.seconds(1), on: scheduler)   // -t-t-t-…
    public static func interval(_ interval: Duration, on scheduler: some Scheduler) -> Signal<Duration> {
        Signal { observer in
            scheduler.schedule(every: interval) { observer.sendNext(scheduler.now) }
        }.described("Timer.interval", [interval.label])
    }

    /// Sends the scheduler's time once, `delay` after subscribing, then completes.
    public static func after(_ delay: Duration, on scheduler: some Scheduler) -> Signal<Duration> {
        Signal { observer in
            scheduler.schedule(after: delay) {
                observer.sendNext(scheduler.now)
                observer.sendCompleted()
            }
        }.described("Timer.after", [delay.label])
    }
}
