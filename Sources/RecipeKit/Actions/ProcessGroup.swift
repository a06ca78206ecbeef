import Glibc

/// What is left of a stopped process group after its leader exited.
enum ProcessGroup {
    /// Kills members of `group` that outlived their leader (grandchildren
    /// that ignored the stop signal) and waits, up to `limit`, until none is
    /// left, so that a restarted server finds its port free.
    static func reap(_ group: Int32, within limit: Duration) {
        let deadline = ContinuousClock.now + limit
        while kill(-group, 0) == 0, ContinuousClock.now < deadline {
            kill(-group, SIGKILL)
            usleep(2_000)
        }
    }
}
