internal import CGlibcShims

/// Two `prctl(2)` settings that tie processes' lives together, for a
/// hosting rwatch and the recipe it runs.
public enum ProcessControl {
    /// Asks the kernel to send `signal` to this process when the thread
    /// that started it ends (the hosting rwatch dying, even by
    /// SIGKILL). Returns false when the kernel refused.
    @discardableResult
    public static func signalWhenParentDies(_ signal: Int32) -> Bool {
        CGlibcShims_set_parent_death_signal(signal) == 0
    }

    /// Makes this process the parent of every orphaned descendant (instead
    /// of init), so that it can find, stop and reap the process groups a
    /// crashed child left behind. Returns false when the kernel refused.
    @discardableResult
    public static func becomeSubreaper() -> Bool {
        CGlibcShims_become_child_subreaper() == 0
    }
}
