#if canImport(Glibc)
import Glibc
#endif

/// Two `prctl(2)` settings that tie processes' lives together, for a
/// supervising rwatch and the recipe it runs.
public enum ProcessControl {
    private static let setPdeathsig: Int32 = 1   // PR_SET_PDEATHSIG
    private static let setChildSubreaper: Int32 = 36   // PR_SET_CHILD_SUBREAPER

    /// Asks the kernel to send `signal` to this process when the thread
    /// that started it ends (the supervising rwatch dying, even by
    /// SIGKILL). Returns false when the kernel refused.
    @discardableResult
    public static func signalWhenParentDies(_ signal: Int32) -> Bool {
        guard let prctl = GNUFunctions.prctl else { return false }
        return prctl(setPdeathsig, UInt(signal), 0, 0, 0) == 0
    }

    /// Makes this process the parent of every orphaned descendant (instead
    /// of init), so that it can find, stop and reap the process groups a
    /// crashed child left behind. Returns false when the kernel refused.
    @discardableResult
    public static func becomeSubreaper() -> Bool {
        guard let prctl = GNUFunctions.prctl else { return false }
        return prctl(setChildSubreaper, 1, 0, 0, 0) == 0
    }
}
