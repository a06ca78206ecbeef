/// The state of one run action: at most one command running, at most one
/// pending trigger. Transitions return what to do; `CommandAction` does it
/// outside the lock. Process groups are not its business: a step names the
/// current run, whose `ProcessHandle` knows its group.
struct RunMachine<Trigger: RunTrigger> {
    enum Phase: Equatable {
        case idle
        /// A run was started (spawning or running).
        case running
        /// The run was asked to stop (restart); its `exited` is awaited.
        case stopping
    }

    enum Step {
        case none
        case start(Trigger)
        /// Stop the current run; start the pending one once it has exited.
        case stop
        /// Send this signal to the current run's process group.
        case signal(Int32)
        case complete
    }

    let policy: OnBusy
    private(set) var phase = Phase.idle
    private(set) var pending: Trigger?
    private var upstreamCompleted = false

    init(policy: OnBusy) {
        self.policy = policy
    }

    /// A trigger arrived.
    mutating func receive(_ trigger: Trigger) -> Step {
        switch phase {
        case .idle:
            phase = .running
            return .start(trigger)
        case .running:
            switch policy {
            case .queue:
                keep(trigger)
                return .none
            case .restart:
                keep(trigger)
                phase = .stopping
                return .stop
            case .ignore:
                return .none
            case .signal(let number):
                return .signal(number)
            }
        case .stopping:
            keep(trigger)
            return .none
        }
    }

    /// The command exited (or could not start).
    mutating func exited() -> Step {
        phase = .idle
        if let next = pending {
            pending = nil
            phase = .running
            return .start(next)
        }
        return upstreamCompleted ? .complete : .none
    }

    /// No more triggers will come: complete once idle.
    mutating func completed() -> Step {
        upstreamCompleted = true
        return phase == .idle && pending == nil ? .complete : .none
    }

    private mutating func keep(_ trigger: Trigger) {
        pending = pending.map { $0.merging(trigger) } ?? trigger
    }
}
