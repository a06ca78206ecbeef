/// What the machine hands out: through the job's save rule, as `send`
/// actions in the step's `outbox`.
extension PollMachine {
    /// Hands out what `changes` holds now (at the end of a pass, or
    /// before a `rootMissing`, which may end the client), through the save
    /// rule: a new file is held in case it goes again, and announced by
    /// the first pass to end after the save window (`endPass`).
    func flush<System: PollSystem>(_ changes: inout PollChanges, _ system: System) {
        let observations = changes.observations()
        changes = PollChanges()
        deliver(observations)
    }

    /// Sends what a look found, through the save rule.
    func deliver(_ observations: [SaveCoalescer.Observation]) {
        var out: [FileEvent] = []
        for observation in observations { out += coalescer.observe(observation, now: now) }
        if !out.isEmpty { outbox.append(.send(out)) }
    }

    /// When the last new file held now is due (monotonic), if any.
    var newFilesDue: Double? { coalescer.newFilesDue }
}
