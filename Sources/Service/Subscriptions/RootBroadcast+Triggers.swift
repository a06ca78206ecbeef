import Dispatch

extension RootBroadcast {
    /// Adds `trigger`, replacing the one of that name; the replaced one
    /// (stopped), or nil. False when the root is gone.
    func add(_ trigger: Trigger) -> (added: Bool, replaced: Trigger?) {
        let (added, replaced) = state.withLock { state -> (Bool, Trigger?) in
            guard !state.finished else { return (false, nil) }
            let index = state.triggers.firstIndex { $0.name == trigger.name }
            let replaced = index.map { state.triggers.remove(at: $0) }
            state.triggers.append(trigger)
            return (true, replaced)
        }
        _ = replaced?.remove()
        keepRootAlive()
        // Its first run waits for the root's settle period, as every run
        // does (watchman's trigger documentation): changes made meanwhile
        // are part of it.
        let settle = DispatchTimeInterval.milliseconds(Int(max(0, root.state.withLock { $0.configuration.settle })))
        if added { queue.asyncAfter(deadline: .now() + settle) { [self] in runTriggers(tick: root.position.tick) } }
        return (added, replaced)
    }

    /// Removes the trigger `name` (stopping its command); it, or nil.
    func removeTrigger(named name: String) -> Trigger? {
        let removed = state.withLock { state -> Trigger? in
            guard let index = state.triggers.firstIndex(where: { $0.name == name }) else { return nil }
            return state.triggers.remove(at: index)
        }
        _ = removed?.remove()
        keepRootAlive()
        return removed
    }

    var triggers: [Trigger] { state.withLock { $0.triggers } }

    /// Starts each trigger that is not running and is behind `tick`; one
    /// that ends runs this again (what changed while it ran). On `queue`.
    func runTriggers(tick: UInt64) {
        guard root.isLive, !state.withLock({ $0.vcsBusy }) else { return }
        for trigger in triggers where !trigger.isIdle(atTick: tick) {
            trigger.evaluate { [weak self] in
                guard let self else { return }
                queue.async { self.runTriggers(tick: self.root.position.tick) }
            }
        }
    }
}
