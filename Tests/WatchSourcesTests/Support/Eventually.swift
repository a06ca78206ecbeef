#if canImport(Glibc)
import Glibc
#endif

/// Polls `condition` every 2 ms until it holds or `seconds` pass; returns
/// whether it held. For real files and processes: waits on a condition,
/// never a fixed sleep, with a deadline generous enough for a loaded CI box.
func eventually(within seconds: Double = 20, _ condition: () -> Bool) -> Bool {
    var start = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    while true {
        if condition() { return true }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        if Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9 > seconds { return false }
        usleep(2_000)
    }
}
