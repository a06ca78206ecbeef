import Dispatch
import Signals
import WatchSources

/// Threads that run handlers and close hooks off the socket loop, made on
/// demand: a job never waits for another job to finish while fewer than
/// `maximumThreads` run (a handler blocked on `sync_timeout` holds its own
/// thread only). An idle thread ends after `idleTimeout`.
final class WorkerPool: Sendable {
    static let shared = WorkerPool(maximumThreads: 256, idleTimeout: .seconds(10))

    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var head = 0
        var threads = 0
        var idle = 0
    }

    private let state = Locked(State())
    private let available = DispatchSemaphore(value: 0)
    private let maximumThreads: Int
    private let idleTimeout: Duration

    init(maximumThreads: Int, idleTimeout: Duration) {
        self.maximumThreads = maximumThreads
        self.idleTimeout = idleTimeout
    }

    /// Runs `job` on a pool thread, soon.
    func run(_ job: @escaping @Sendable () -> Void) {
        let spawn = state.withLock { state -> Bool in
            state.jobs.append(job)
            guard state.jobs.count - state.head > state.idle, state.threads < maximumThreads else { return false }
            state.threads += 1
            return true
        }
        available.signal()
        if spawn && !DetachedThread.start(stackSize: 4 << 20, name: "rwatch-serve-job", { self.work() }) {
            state.withLock { $0.threads -= 1 }
        }
    }

    private func work() {
        while true {
            state.withLock { $0.idle += 1 }
            let timedOut = available.wait(timeout: .now() + .milliseconds(Int(idleTimeout.components.seconds * 1000))) == .timedOut
            let job = state.withLock { state -> (@Sendable () -> Void)? in
                state.idle -= 1
                guard state.head < state.jobs.count else {
                    if timedOut { state.threads -= 1 }
                    return nil
                }
                let job = state.jobs[state.head]
                state.head += 1
                if state.head == state.jobs.count {
                    state.jobs.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                return job
            }
            if let job {
                job()
            } else if timedOut {
                return
            }
        }
    }
}
