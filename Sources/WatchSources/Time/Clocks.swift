import Glibc

/// The two clocks of the watcher, the poller and tail: the wall clock,
/// only to compare with a file's times, and the monotonic clock, for
/// every deadline and timeout.
enum Clocks {
    /// The wall clock, in the units of `FileSystem.changeTime`: only for comparing
    /// with a file's times (it jumps when the clock is set).
    static func wall() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Seconds on the monotonic clock: for deadlines and timeouts, which a
    /// wall clock set back or forward would stretch or cut.
    static func monotonic() -> Double {
        Double(monotonicNanoseconds()) / 1e9
    }

    /// Nanoseconds on the monotonic clock (`CLOCK_MONOTONIC`): the one
    /// reading behind every deadline of the watcher, poller and tail.
    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
