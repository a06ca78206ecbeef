/// How a subscription reacts to its root's states and version control:
/// the `defer` and `drop` lists and `defer_vcs` of its `subscribe`.
///
/// A pure rule (`docs/cmd/subscribe.md`): on each settle a subscription
/// that is behind the root's clock is evaluated, unless a state it drops
/// is asserted (its position moves to now: what happened is never sent),
/// a state it defers is asserted, or version control is busy and it
/// defers for that (both wait: the next evaluation carries everything).
struct SubscriptionPolicy: Sendable, Equatable {
    var deferred: Set<String> = []
    var dropped: Set<String> = []
    var defersVCS = true

    /// What a subscription does at a settle, or at a flush.
    enum Action: Sendable, Equatable {
        /// Nothing changed since its last evaluation.
        case upToDate
        case evaluate
        /// Held until the state is left.
        case deferUntilLeft(String)
        /// Moved to now, nothing sent, while the state lasts.
        case drop(String)
        /// Held while git or Mercurial rewrites the tree.
        case deferForVCS
        /// `debug-set-subscriptions-paused`: only a flush evaluates it.
        case paused
    }

    /// At a settle: behind or not, then a dropped state (first, whatever
    /// the order), a deferred state, version control, a pause.
    func atSettle(lastTick: UInt64, tick: UInt64, asserted: Set<String>, vcsBusy: Bool, paused: Bool) -> Action {
        if paused { return .paused }
        if lastTick == tick { return .upToDate }
        if let state = asserted.intersection(dropped).min() { return .drop(state) }
        if let state = asserted.intersection(deferred).min() { return .deferUntilLeft(state) }
        if defersVCS, vcsBusy { return .deferForVCS }
        return .evaluate
    }

    /// At `flush-subscriptions`: evaluated whatever it defers for, unless
    /// a state it drops is asserted.
    func atFlush(asserted: Set<String>) -> Action {
        if let state = asserted.intersection(dropped).min() { return .drop(state) }
        return .evaluate
    }

    /// The states of `asserted` this subscription defers or drops for
    /// (the `asserted-states` of its `subscribe` reply).
    func watched(among asserted: Set<String>) -> [String] {
        asserted.intersection(deferred.union(dropped)).sorted()
    }
}
