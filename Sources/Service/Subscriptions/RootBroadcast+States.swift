import WatchmanProtocol

extension RootBroadcast {
    /// Queues `client`'s assertion of `name` (pending until its sync is
    /// done); its id. Watchman's error when another client holds it.
    func enter(_ name: String, client: Int) throws(CommandError) -> Int {
        let entered = state.withLock { state in Result { () throws(AssertedStates.Refused) in try state.states.enter(name, client: client) } }
        switch entered {
        case .success(let id): return id
        case .failure(let refused): throw CommandError(refused.message)
        }
    }

    /// The enter's sync failed: the state is not entered.
    func abandonEnter(_ id: Int) {
        _ = state.withLock { $0.states.remove(id) }
    }

    /// The enter's sync is done: from now on subscriptions that defer or
    /// drop `name` do so. Its notice goes out with `announce` (after the
    /// reply), or once the assertion reaches the front of its queue.
    func asserted(_ id: Int, metadata: WatchmanValue?) -> Bool {
        state.withLock { state in
            let front = state.states.asserted(id)
            if !front, let metadata { state.waitingMetadata[id] = metadata }
            return front
        }
    }

    /// Tells every subscriber the state was entered, with the clock now. On `queue`.
    func announceEnter(_ name: String, metadata: WatchmanValue?) {
        var members: [(key: String, value: WatchmanValue)] = [("state-enter", .string(name)), ("clock", .string(root.position.clockString()))]
        if let metadata { members.append(("metadata", metadata)) }
        broadcast(members)
    }

    /// The leave's sync is under way: the state still holds until `left`.
    func leaving(_ id: Int) {
        state.withLock { $0.states.leaving(id) }
    }

    /// The leave's sync failed: the state stays asserted.
    func stayed(_ id: Int) {
        state.withLock { $0.states.stayed(id) }
    }

    /// The state is left (by `state-leave`, or `abandoned` by a client
    /// that went away): subscribers are told, those that dropped it move
    /// on to now, the next holder's enter notice goes out, and what was
    /// deferred is evaluated. On `queue`.
    func left(_ id: Int, metadata: WatchmanValue?, abandoned: Bool) {
        let (removed, nowFront, frontMetadata, subscriptions) = state.withLock { state in
            let (removed, nowFront) = state.states.remove(id)
            let frontMetadata = nowFront.flatMap { state.waitingMetadata.removeValue(forKey: $0.id) }
            return (removed, nowFront, frontMetadata, state.subscriptions)
        }
        guard let removed else { return }
        let position = root.position
        var members: [(key: String, value: WatchmanValue)] = [("state-leave", .string(removed.name)), ("clock", .string(position.clockString()))]
        if let metadata { members.append(("metadata", metadata)) }
        if abandoned { members.append(("abandoned", true)) }
        broadcast(members)
        for subscription in subscriptions where subscription.spec.policy.dropped.contains(removed.name) {
            subscription.skip(to: position)
        }
        if let nowFront { announceEnter(nowFront.name, metadata: frontMetadata) }
        settled()
    }

    /// Sends a state notice to every subscription of the root. On `queue`.
    private func broadcast(_ members: [(key: String, value: WatchmanValue)]) {
        for subscription in subscriptions where subscription.progress.withLock({ $0.started && !$0.cancelled }) {
            send(subscription.notice(members, version: version), to: subscription)
        }
    }

    /// Every assertion (`debug-get-asserted-states`).
    var assertions: [AssertedStates.Assertion] { state.withLock { $0.states.all } }

    /// The asserted state names among those `policy` watches.
    func asserted(for policy: SubscriptionPolicy) -> [String] {
        policy.watched(among: state.withLock { $0.states.assertedNames })
    }

    // MARK: Flush

    /// What `flush-subscriptions` did with each subscription.
    struct FlushOutcome {
        var synced: [String] = []
        var noSyncNeeded: [String] = []
        var dropped: [String] = []
    }

    /// Evaluates `subscriptions` now, whatever they defer for (a state,
    /// version control, a pause), except those a dropped state holds,
    /// which move on to now. The root was synced before. On `queue`.
    func flush(_ subscriptions: [Subscription]) -> FlushOutcome {
        let asserted = state.withLock { $0.states.assertedNames }
        var outcome = FlushOutcome()
        for subscription in subscriptions {
            switch subscription.spec.policy.atFlush(asserted: asserted) {
            case .drop:
                subscription.skip(to: root.position)
                outcome.dropped.append(subscription.name)
            default:
                if let pdu = subscription.evaluate(version: version, log: log) {
                    send(pdu, to: subscription)
                    outcome.synced.append(subscription.name)
                } else {
                    outcome.noSyncNeeded.append(subscription.name)
                }
            }
        }
        return outcome
    }
}
