/// The state of one run action, as one value: the set of runs it has going
/// for a trigger (one run, or with `{}`/`{+}` one per changed path, at most
/// `jobs` at once), whether that set is stopping and why, at most one
/// pending trigger, and whether keys paused it. Transitions return what to
/// do; `CommandAction` makes them on the recipe queue and does it, outside
/// the lock. Process groups are not its business: a run's `ProcessHandle`
/// reaches its group.
///
///     idle ──trigger──▶ running(set) ──last run exited──▶ idle (or the pending set)
///                          │  restart, a stop from elsewhere
///                          ▼
///                       stopping(set) ──last run exited──▶ idle (or the pending set)
///
/// The busy policy applies to the whole set: a restart stops every run of
/// it and starts none of those still waiting.
struct RunMachine<Trigger: RunTrigger> {
    typealias Run = CommandRun<Trigger>

    enum Phase {
        case idle
        /// A set was started; some of its runs run (or spawn), others may wait.
        case running(RunSet)
        /// The set is stopping; the `exited` of each running run is awaited.
        case stopping(RunSet, StopCause)
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
        /// Start these runs (just made).
        case start([Run])
        /// Stop these runs; the pending set starts once they have exited.
        case stop([Run])
        /// Send this signal to these runs' process groups.
        case signal([Run], Int32)
        /// The trigger names no path for a command with `{}`/`{+}`, and
        /// no earlier trigger did: nothing runs.
        case nothingToRun
        case complete
    }

    /// How a run that ended is reported.
    enum Ending: Equatable {
        /// It ended on its own (or could not start).
        case own
        /// rwatch stopped it, for this reason.
        case stopped(StopCause)
        /// It is no run of this action's any more (disposed): nothing to report.
        case stale
    }

    /// What follows a run's end: more of its set, the set's end (report
    /// it, then ask `next()`), or nothing yet.
    enum After {
        case wait
        case start([Run])
        case finished(Outcome)
    }

    let policy: OnBusy
    /// How many runs of a set may run at once (`-j`).
    let jobs: Int
    let template: CommandTemplate
    private(set) var phase = Phase.idle
    private(set) var pending: Trigger?
    /// The last trigger that gave runs: a trigger without paths (the `r`
    /// key) runs a `{}` command for its paths again.
    private var last: Trigger?
    /// Whether triggers go through, or are held (merged) while keys paused
    /// the action (`p`).
    enum Gate {
        case open
        case paused(held: Trigger?)
    }

    private(set) var gate = Gate.open
    private var upstreamCompleted = false

    /// What makes each run's handle: the world's commands.
    private let launcher: any CommandLauncher

    init(policy: OnBusy, jobs: Int = 1, template: CommandTemplate, launcher: any CommandLauncher = RecipeWorld.live.commands) {
        precondition(jobs >= 1, "jobs must be at least 1")
        self.policy = policy
        self.jobs = jobs
        self.template = template
        self.launcher = launcher
    }

    /// A trigger arrived: held while paused, else under the policy.
    mutating func receive(_ trigger: Trigger, at now: Duration = .zero) -> Step {
        if case .paused(let held) = gate {
            gate = .paused(held: held.map { $0.merging(trigger) } ?? trigger)
            return .none
        }
        return runNow(trigger, at: now)
    }

    /// A trigger under the policy, paused or not (the `r` key).
    mutating func runNow(_ trigger: Trigger, at now: Duration = .zero) -> Step {
        switch phase {
        case .idle:
            return begin(trigger, at: now)
        case .running(var set):
            switch policy {
            case .queue:
                keep(trigger)
                return .none
            case .restart:
                keep(trigger)
                set.dropWaiting()
                phase = .stopping(set, .restart)
                return .stop(set.running)
            case .ignore:
                return .none
            case .signal(let number):
                return .signal(set.running, number)
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

    /// `run` ran past its timeout: it alone stops; the rest of its set goes on.
    mutating func timedOut(_ run: Run) -> Step {
        guard case .running(var set) = phase, set.holds(run), set.stopCause(of: run) == nil else { return .none }
        set.stopAlone(run, .timeout)
        phase = .running(set)
        return .stop([run])
    }

    /// `run`'s group began to stop, whoever asked (nothing to do: the stop
    /// is under way). A stop from elsewhere stops the set: nothing more of
    /// it starts. True while `run` is stopping.
    mutating func stopBegan(_ run: Run) -> Bool {
        switch phase {
        case .running(var set) where set.holds(run):
            if set.stopCause(of: run) != nil { return true }
            set.dropWaiting()
            phase = .stopping(set, .elsewhere)
            return true
        case .stopping(let set, _):
            return set.holds(run)
        default:
            return false
        }
    }

    /// Whether `run` is stopping now.
    func isStopping(_ run: Run) -> Bool {
        switch phase {
        case .stopping(let set, _): set.holds(run)
        case .running(let set): set.holds(run) && set.stopCause(of: run) != nil
        default: false
        }
    }

    /// `run`'s group is gone (or it could not start), with `status`: how
    /// to report it, and what follows.
    mutating func exited(_ run: Run, _ status: ExitStatus, at now: Duration = .zero) -> (ending: Ending, after: After) {
        switch phase {
        case .running(var set) where set.holds(run):
            let ending = set.stopCause(of: run).map(Ending.stopped) ?? .own
            set.end(run, status, at: now)
            let more = set.fill(upTo: jobs, launcher: launcher, at: now)
            if set.isOver {
                phase = .idle
                return (ending, .finished(Outcome(set: set, stopped: nil)))
            }
            phase = .running(set)
            return (ending, more.isEmpty ? .wait : .start(more))
        case .stopping(var set, let cause) where set.holds(run):
            set.end(run, status, at: now)
            if set.isOver {
                phase = .idle
                return (.stopped(cause), .finished(Outcome(set: set, stopped: cause)))
            }
            phase = .stopping(set, cause)
            return (.stopped(cause), .wait)
        default:
            return (.stale, .wait)
        }
    }

    /// After a finished set was reported: the pending set, or completion.
    mutating func next(at now: Duration = .zero) -> Step {
        guard case .idle = phase else { return .none }
        if let trigger = pending {
            pending = nil
            return runNow(trigger, at: now)
        }
        return upstreamCompleted ? .complete : .none
    }

    /// No more triggers will come: complete once idle.
    mutating func completed() -> Step {
        upstreamCompleted = true
        guard case .idle = phase, pending == nil else { return .none }
        return .complete
    }

    /// The action is disposed: the runs to stop.
    mutating func dispose() -> [Run] {
        defer { phase = .disposed }
        return current
    }

    /// The runs going now.
    var current: [Run] {
        switch phase {
        case .running(let set), .stopping(let set, _): set.running
        case .idle, .disposed: []
        }
    }

    /// Starts a set for `trigger`, or says there is nothing to run.
    private mutating func begin(_ trigger: Trigger, at now: Duration) -> Step {
        var trigger = trigger
        var invocations = template.invocations(for: trigger.changes?.paths ?? [])
        if invocations.isEmpty, let last {
            trigger = last
            invocations = template.invocations(for: last.changes?.paths ?? [])
        }
        guard !invocations.isEmpty else { return .nothingToRun }
        if template.isPerPath { last = trigger }
        var set = RunSet(trigger, invocations, at: now)
        let started = set.fill(upTo: jobs, launcher: launcher, at: now)
        phase = .running(set)
        return .start(started)
    }

    private mutating func keep(_ trigger: Trigger) {
        pending = pending.map { $0.merging(trigger) } ?? trigger
    }
}
