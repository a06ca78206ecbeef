/// The state of `batched`: the events of the open window and when it
/// closes. A window closes `quiet` after its last event, or `maxWait` after
/// its first, whichever comes first. One timer is armed at a time; when it
/// fires early (the deadline moved later) it is re-armed for the rest.
struct BatchWindow {
    enum Step {
        case none
        /// Arm the timer to fire after this delay.
        case arm(Duration)
        /// Send these events as one batch.
        case flush([FileEvent])
        /// Send the batch (if any), then the terminal event.
        case finish([FileEvent])
    }

    let quiet: Duration
    let maxWait: Duration
    private var events: [FileEvent] = []
    private var opened: Duration = .zero
    private var deadline: Duration = .zero
    private var armed = false

    init(quiet: Duration, maxWait: Duration) {
        self.quiet = quiet
        self.maxWait = max(maxWait, quiet)
    }

    mutating func receive(_ event: FileEvent, now: Duration) -> Step {
        if events.isEmpty { opened = now }
        events.append(event)
        deadline = min(now + quiet, opened + maxWait)
        if armed { return .none }
        armed = true
        return .arm(deadline - now)
    }

    mutating func timerFired(now: Duration) -> Step {
        armed = false
        if events.isEmpty { return .none }
        if now < deadline {
            armed = true
            return .arm(deadline - now)
        }
        defer { events = [] }
        return .flush(events)
    }

    mutating func finish() -> Step {
        defer { events = [] }
        return .finish(events)
    }
}
