import SystemPackage

/// Where a `TailFollower` hands its lines: the subscriber's observer,
/// wrapped so that one follower serves both `Tail.follow` forms without an
/// extra observer hop per line.
struct TailSink: Sendable {
    /// Receives each line with the path it came from.
    let deliver: @Sendable (_ path: FilePath, _ text: String) -> Void
    /// Called after the lines of each read (at most 1 MiB) were delivered:
    /// where a batching subscriber sends its batch.
    var flush: @Sendable () -> Void = {}
    /// Hears what `tail -F` would say on stderr (waiting, rotated, truncated).
    var notice: @Sendable (Tail.Notice) -> Void = { _ in }
    /// True once the subscriber is gone: the follower stops reading.
    let isStopped: @Sendable () -> Bool
    /// Ends the subscription normally: every followed name was a stream
    /// that has ended (the follower thread then stops).
    var complete: @Sendable () -> Void = {}
    /// Ends the subscription with an error (the follower thread then stops).
    let fail: @Sendable (TailError) -> Void
}
