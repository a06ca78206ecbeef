/// The state of one run action: at most one command running, at most one
/// pending trigger. Transitions return what to do; `CommandAction` does it
/// outside the lock.
struct RunMachine<Trigger: RunTrigger> {
    enum Phase: Equatable {
        case idle
        /// Spawned; its process group id is not known yet.
        case starting
        case running(group: Int32)
        /// Asked to stop (restart); the group id is nil until known.
        case stopping(group: Int32?)
    }

    enum Step {
        case none
        case start(Trigger)
        case stop(group: Int32)
        case signal(group: Int32, Int32)
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
            phase = .starting
            return .start(trigger)
        case .starting:
            switch policy {
            case .queue: keep(trigger)
            case .restart:
                keep(trigger)
                phase = .stopping(group: nil)
            case .ignore, .signal: break
            }
            return .none
        case .running(let group):
            switch policy {
            case .queue:
                keep(trigger)
                return .none
            case .restart:
                keep(trigger)
                phase = .stopping(group: group)
                return .stop(group: group)
            case .ignore:
                return .none
            case .signal(let number):
                return .signal(group: group, number)
            }
        case .stopping:
            keep(trigger)
            return .none
        }
    }

    /// The command started in process group `group`.
    mutating func started(group: Int32) -> Step {
        switch phase {
        case .stopping(group: nil):
            phase = .stopping(group: group)
            return .stop(group: group)
        case .starting:
            phase = .running(group: group)
            return .none
        default:
            return .none
        }
    }

    /// The command exited (or could not start).
    mutating func exited() -> Step {
        phase = .idle
        if let next = pending {
            pending = nil
            phase = .starting
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
