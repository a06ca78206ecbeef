import Dispatch
import Signals

/// Opens once every part of something is done: `subscribe` returns only
/// once every part of a new subscription is armed (its inotify watches,
/// and the first pass of each of its polled subtrees, which takes the
/// snapshot later changes are compared with); a barrier once every
/// subscriber has been delivered what was sent to it.
final class ArmGate: Sendable {
    private struct State {
        var pending = 1
        var then: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())
    private let done = DispatchSemaphore(value: 0)

    /// One more part must finish.
    func hold() {
        state.withLock { $0.pending += 1 }
    }

    /// One part finished; the last one opens the gate.
    func release() {
        let opened = state.withLock { state -> [@Sendable () -> Void]? in
            state.pending -= 1
            guard state.pending == 0 else { return nil }
            defer { state.then = [] }
            return state.then
        }
        guard let opened else { return }
        done.signal()
        for body in opened { body() }
    }

    /// Blocks until the gate opens.
    func wait() {
        done.wait()
    }

    /// Calls `body` once the gate is open: now, on this thread, when it is
    /// already, else on the thread whose `release` opens it.
    func whenOpen(_ body: @escaping @Sendable () -> Void) {
        let isOpen = state.withLock { state -> Bool in
            if state.pending == 0 { return true }
            state.then.append(body)
            return false
        }
        if isOpen { body() }
    }
}
