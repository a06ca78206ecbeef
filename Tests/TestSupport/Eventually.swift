#if canImport(Glibc)
import Glibc
#endif

/// Polls `condition` every 2 ms until it holds or `timeout` passes; returns
/// whether it held. For work that completes on other threads, in other
/// processes or in the kernel: tests wait on a condition with a deadline
/// generous enough for a loaded CI machine, never on a fixed sleep.
public func eventually(_ timeout: Duration = .seconds(20), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(2_000)  // the poll interval, not a wait for an outcome
    }
    return condition()
}
