import Dispatch
import Signals

/// Lets `FileWatcher`'s `subscribe` return only once every part of a new
/// subscription is armed: its inotify watches (the reader thread) and the
/// first pass of each of its polled subtrees (the poll thread), which
/// takes the snapshot later changes are compared with.
final class ArmGate: Sendable {
    private let pending = Locked(1)
    private let done = DispatchSemaphore(value: 0)

    /// One more part must finish.
    func hold() {
        pending.withLock { $0 += 1 }
    }

    /// One part finished; the last one opens the gate.
    func release() {
        let open = pending.withLock { count -> Bool in
            count -= 1
            return count == 0
        }
        if open { done.signal() }
    }

    /// Blocks until the gate opens.
    func wait() {
        done.wait()
    }
}
