/// The state of one run action, as one value: the run it has going (and
/// whether that run is stopping, and why), at most one pending trigger,
/// and whether keys paused it. Transitions return what to do;
/// `CommandAction` makes them on the recipe queue and does it, outside the
/// lock. Process groups are not its business: a run's `ProcessHandle`
/// reaches its group.
///
///     idle ──trigger──▶ running ──exited──▶ idle (or the pending run)
///                          │  restart, timeout, a stop from elsewhere
///                          ▼
///                       stopping ──exited──▶ idle (or the pending run)
struct RunMachine<Trigger: RunTrigger> {
    typealias Run = CommandRun<Trigger>

    enum Phase {
        case idle
        /// A run was started (spawning or running).
        case running(Run)
        /// The run is stopping; its `exited` is awaited.
        case stopping(Run, StopCause)
        /// Disposed: nothing starts and nothing is reported any more.
        case disposed
    }

    /// Why a run is stopping.
    enum StopCause: Equatable {
        /// A trigger came under `.restart`.
        case restart
        /// It ran longer than `RunOptions.timeout`.
        case timeout
        /// Its group was stopped from elsewhere (Ctrl-C's stop of every
        /// group).
        case elsewhere
    }

    enum Step {
        case none
        /// Start this run (just made).
        case start(Run)
        /// Stop this run; the pending one starts once it has exited.
        case stop(Run)
        /// Send this signal to the run's process group.
        case signal(Run, Int32)
        case complete
    }

    /// How a run that ended is reported (then `next()` says what follows).
    enum Ending: Equatable {
        /// It ended on its own (or could not start).
        case own
        /// rwatch stopped it, for this reason.
        case stopped(StopCause)
        /// It is no run of this action's any more (disposed): nothing to report.
        case stale
    }

    let policy: OnBusy
    private(set) var phase = Phase.idle
    private(set) var pending: Trigger?
    /// Whether triggers go through, or are held (merged) while keys paused
    /// the action (`p`).
    enum Gate {
        case open
        case paused(held: Trigger?)
    }

    private(set) var gate = Gate.open
    private var upstreamCompleted = false

    init(policy: OnBusy) {
        self.policy = policy
    }

    /// A trigger arrived: held while paused, else under the policy.
    mutating func receive(_ trigger: Trigger) -> Step {
        if case .paused(let held) = gate {
            gate = .paused(held: held.map { $0.merging(trigger) } ?? trigger)
            return .none
        }
        return runNow(trigger)
    }

    /// A trigger under the policy, paused or not (the `r` key).
    mutating func runNow(_ trigger: Trigger) -> Step {
        switch phase {
        case .idle:
            let run = Run(trigger)
            phase = .running(run)
            return .start(run)
        case .running(let run):
            switch policy {
            case .queue:
                keep(trigger)
                return .none
            case .restart:
                keep(trigger)
                phase = .stopping(run, .restart)
                return .stop(run)
            case .ignore:
                return .none
            case .signal(let number):
                return .signal(run, number)
            }
        case .stopping:
            keep(trigger)
            return .none
        case .disposed:
            return .none
        }
    }

    /// Keys paused the action (`p`).
    mutating func pause() {
        if case .open = gate { gate = .paused(held: nil) }
    }

    /// Keys resumed it: what was held, to take once (`receive`).
    mutating func resume() -> Trigger? {
        guard case .paused(let held) = gate else { return nil }
        gate = .open
        return held
    }

    /// `run` ran past its timeout.
    mutating func timedOut(_ run: Run) -> Step {
        guard case .running(let current) = phase, current === run else { return .none }
        phase = .stopping(run, .timeout)
        return .stop(run)
    }

    /// `run`'s group began to stop, whoever asked (nothing to do: the stop
    /// is under way). True while `run` is stopping.
    mutating func stopBegan(_ run: Run) -> Bool {
        switch phase {
        case .running(let current) where current === run:
            phase = .stopping(run, .elsewhere)
            return true
        case .stopping(let current, _):
            return current === run
        default:
            return false
        }
    }

    /// Whether `run` is stopping now.
    func isStopping(_ run: Run) -> Bool {
        guard case .stopping(let current, _) = phase else { return false }
        return current === run
    }

    /// `run`'s group is gone (or it could not start).
    mutating func exited(_ run: Run) -> Ending {
        switch phase {
        case .running(let current) where current === run:
            phase = .idle
            return .own
        case .stopping(let current, let cause) where current === run:
            phase = .idle
            return .stopped(cause)
        default:
            return .stale
        }
    }

    /// After a finished run was reported: the pending run, or completion.
    mutating func next() -> Step {
        guard case .idle = phase else { return .none }
        if let trigger = pending {
            pending = nil
            return runNow(trigger)
        }
        return upstreamCompleted ? .complete : .none
    }

    /// No more triggers will come: complete once idle.
    mutating func completed() -> Step {
        upstreamCompleted = true
        guard case .idle = phase, pending == nil else { return .none }
        return .complete
    }

    /// The action is disposed: the run to stop, if one is going.
    mutating func dispose() -> Run? {
        defer { phase = .disposed }
        switch phase {
        case .running(let run), .stopping(let run, _): return run
        case .idle, .disposed: return nil
        }
    }

    /// The run going now, if any.
    var current: Run? {
        switch phase {
        case .running(let run), .stopping(let run, _): run
        case .idle, .disposed: nil
        }
    }

    private mutating func keep(_ trigger: Trigger) {
        pending = pending.map { $0.merging(trigger) } ?? trigger
    }
}
