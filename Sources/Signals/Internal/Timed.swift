/// What a time-based operator's state machine is fed: the subscription
/// starting, the source's events, and its timer firing with the tag it was
/// armed with (a generation where a late firing must be told apart).
@usableFromInline
enum TimedInput<Value, Tag> {
    case start
    case event(Event<Value>)
    case timerFired(Tag)
}

/// The one timer of a time-based operator's subscription. Arming it again
/// cancels the previous arming; its firing reaches the operator through
/// the same drain as the source's events, so the two never overlap.
@usableFromInline
struct OperatorTimer<Value, Tag: Sendable, S: Scheduler> {
    @usableFromInline let slot: SerialDisposable
    @usableFromInline let scheduler: S
    @usableFromInline let drain: Drain<TimedInput<Value, Tag>>

    @inlinable
    init(slot: SerialDisposable, scheduler: S, drain: Drain<TimedInput<Value, Tag>>) {
        self.slot = slot
        self.scheduler = scheduler
        self.drain = drain
    }

    /// The scheduler's time.
    @inlinable var now: Duration { scheduler.now }

    /// Fires `.timerFired(tag)` after `delay`, replacing any armed firing.
    @inlinable
    func arm(after delay: Duration, _ tag: Tag) {
        let drain = drain
        slot.disposable = scheduler.schedule(after: delay) { drain.submit(.timerFired(tag)) }
    }

    /// Cancels the armed firing (at a terminal event).
    @inlinable
    func cancel() {
        slot.dispose()
    }
}

extension Signal {
    /// The frame every time-based operator shares: per subscription it
    /// makes a fresh `step` (which owns the operator's state machine), then
    /// feeds it `.start`, the source's events and the timer's firings one at
    /// a time through a drain. Disposing disposes the source and the timer.
    @inlinable
    func timed<Output, Tag: Sendable, S: Scheduler>(
        on scheduler: S,
        _ makeStep: @escaping @Sendable () -> (TimedInput<Value, Tag>, OperatorTimer<Value, Tag, S>, Observer<Output>) -> Void
    ) -> Signal<Output> {
        Signal<Output>.drained { observer in
            let slot = SerialDisposable()
            let step = makeStep()
            let inputs = Drain<TimedInput<Value, Tag>> { drain, input in
                step(input, OperatorTimer(slot: slot, scheduler: scheduler, drain: drain), observer)
            }
            inputs.submit(.start)
            let source = self.start({ inputs.submit(.event($0)) })
            return CompositeDisposable([source, slot])
        }
    }
}
