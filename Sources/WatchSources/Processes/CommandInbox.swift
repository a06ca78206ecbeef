import Signals

/// The commands waiting for one worker thread that lives only while it has
/// work: a locked queue and a `WakePipe` that wakes the thread's `poll`.
///
/// `submit` from any thread; the first command after the thread ended
/// starts a new one (through the `start` closure), later ones only wake it.
/// The worker takes everything queued with `take()` and, when it has
/// nothing left to do, asks `finishIfIdle()`, which lets it end only if no
/// command slipped in meanwhile, so a command is never left without a
/// thread to run it. The inotify reader and the poller share this.
final class CommandInbox<Command: Sendable>: Sendable {
    private struct State {
        var commands: [Command] = []
        var running = false
    }

    private let state = Locked(State())
    private let wake: WakePipe

    /// Fails only when the process is out of file descriptors; `owner`
    /// names the thread in that message.
    init(owner: String) {
        do throws(GNUFunctions.PipeFailure) {
            wake = try WakePipe()
        } catch {
            preconditionFailure("rwatch: cannot create the \(owner)'s wake-up pipe (errno \(error.errno))")
        }
    }

    /// The descriptor the worker polls (`POLLIN`) beside its own.
    var wakeFD: Int32 { wake.readEnd }

    /// Whether a worker thread is alive (or about to be started).
    var isRunning: Bool { state.withLock { $0.running } }

    /// Queues `command`; calls `start` (outside the lock) when no worker
    /// is running, else wakes the one that is.
    func submit(_ command: Command, start: () -> Void) {
        let mustStart = state.withLock { state -> Bool in
            state.commands.append(command)
            if state.running { return false }
            state.running = true
            return true
        }
        if mustStart {
            start()
        } else {
            wake.wake()
        }
    }

    /// Worker side: every queued command, oldest first; clears the wake-up.
    func take() -> [Command] {
        wake.drain()
        return state.withLock { state in
            defer { state.commands.removeAll() }
            return state.commands
        }
    }

    /// Worker side, with nothing left to do: true when the worker may end
    /// (the next `submit` starts a new one); false when commands arrived
    /// meanwhile and must be taken first.
    func finishIfIdle() -> Bool {
        state.withLock { state in
            guard state.commands.isEmpty else { return false }
            state.running = false
            return true
        }
    }
}
