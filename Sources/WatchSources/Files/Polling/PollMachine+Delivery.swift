/// What the machine hands out: through the job's save coalescer, as
/// `send` actions in the step's `outbox`.
extension PollMachine {
    /// Hands out what `changes` holds now (at the end of a pass, or
    /// before a `rootMissing`, which may end the client): new files are
    /// held back for the save window (`NewFileHold`), then announced if
    /// they are still there.
    func flush<System: PollSystem>(_ changes: inout PollChanges, _ system: System) {
        // Renamed to an ignored name before it was announced: it never was.
        let renamedAway = changes.renamedAway.filter { !held.contains($0.path.bytes) }
        for event in changes.renamedAway where held.contains(event.path.bytes) { held.remove(event.path.bytes) }
        if !renamedAway.isEmpty { holdRenamedAway(renamedAway) }
        let outcome = changes.settle(held: held.paths)
        changes = PollChanges()
        let due = held.settle(released: outcome.released, new: outcome.held, now: now, window: coalescer.freshWindow)
        var events = due.filter { PollMachine.exists($0, system) }.map { PollChanges.event($0, .created) }
        events += outcome.events
        if !events.isEmpty { deliver(events) }
    }

    /// Sends what a pass found, through the save coalescer. A pass sees
    /// what is already there: nothing to wait for.
    func deliver(_ events: [FileEvent]) {
        var out: [FileEvent] = []
        for event in events { out += coalescer.pass(event, now: now, origin: .scan) }
        outbox.append(.send(out))
    }

    /// Reported files renamed to ignored names: held by the save coalescer,
    /// as an editor's save may be starting.
    private func holdRenamedAway(_ events: [FileEvent]) {
        var out: [FileEvent] = []
        for event in events { out += coalescer.hold(event, now: now) }
        outbox.append(.send(out))
    }

    /// When the last new file held now is due (monotonic): found by a
    /// pass and waiting the save window, or held by the save coalescer.
    var newFilesDue: Double? {
        [held.due(window: coalescer.freshWindow), coalescer.newFilesDue].compactMap { $0 }.max()
    }

    /// What the save coalescer holds that is due at `now` (monotonic seconds).
    func expire(at now: Double) -> [Action] {
        guard let deadline = coalescer.nextDeadline, deadline <= now else { return [] }
        return [.send(coalescer.expire(now: now))]
    }
}
