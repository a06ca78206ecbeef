import Testing
@testable import Service

/// The rule a subscription follows at a settle and at a flush.
@Suite struct SubscriptionPolicyTests {
    let policy = SubscriptionPolicy(deferred: ["build", "update"], dropped: ["checkout"], defersVCS: true)

    @Test func aSubscriptionAtTheRootsClockIsUpToDate() {
        #expect(policy.atSettle(lastTick: 7, tick: 7, asserted: [], vcsBusy: false, paused: false) == .upToDate)
        #expect(policy.atSettle(lastTick: 6, tick: 7, asserted: [], vcsBusy: false, paused: false) == .evaluate)
    }

    @Test func aDroppedStateWinsOverADeferredOne() {
        #expect(policy.atSettle(lastTick: 1, tick: 2, asserted: ["build", "checkout"], vcsBusy: true, paused: false) == .drop("checkout"))
        #expect(policy.atSettle(lastTick: 1, tick: 2, asserted: ["update", "build"], vcsBusy: true, paused: false) == .deferUntilLeft("build"))
    }

    @Test func statesItDoesNotNameChangeNothing() {
        #expect(policy.atSettle(lastTick: 1, tick: 2, asserted: ["other"], vcsBusy: false, paused: false) == .evaluate)
    }

    @Test func versionControlHoldsOnlyThoseThatDeferForIt() {
        #expect(policy.atSettle(lastTick: 1, tick: 2, asserted: [], vcsBusy: true, paused: false) == .deferForVCS)
        var eager = policy
        eager.defersVCS = false
        #expect(eager.atSettle(lastTick: 1, tick: 2, asserted: [], vcsBusy: true, paused: false) == .evaluate)
    }

    @Test func aPausedSubscriptionWaitsForAFlush() {
        #expect(policy.atSettle(lastTick: 1, tick: 2, asserted: [], vcsBusy: false, paused: true) == .paused)
    }

    @Test func aFlushEvaluatesWhateverIsDeferredButNotWhatIsDropped() {
        #expect(policy.atFlush(asserted: ["build"]) == .evaluate)
        #expect(policy.atFlush(asserted: ["build", "checkout"]) == .drop("checkout"))
    }

    @Test func theSubscribeReplyNamesTheAssertedStatesItWatches() {
        #expect(policy.watched(among: ["update", "checkout", "other"]) == ["checkout", "update"])
    }
}

/// The per-root queue of state assertions.
@Suite struct AssertedStatesTests {
    @Test func aStateCountsOnceItsSyncIsDoneAndUntilItIsGone() throws {
        var states = AssertedStates()
        let id = try states.enter("build", client: 1)
        #expect(!states.isAsserted("build"))
        let front = states.asserted(id)
        #expect(front)
        #expect(states.isAsserted("build"))
        states.leaving(id)
        #expect(states.isAsserted("build"))
        let removed = states.remove(id).removed
        #expect(removed?.name == "build")
        #expect(!states.isAsserted("build"))
        #expect(states.all.isEmpty)
    }

    @Test func aSecondClientIsRefusedWhileTheFirstEntersOrHolds() throws {
        var states = AssertedStates()
        let id = try states.enter("build", client: 1)
        #expect(throws: AssertedStates.Refused(message: "state build is already Asserted or PendingEnter")) {
            try states.enter("build", client: 2)
        }
        _ = states.asserted(id)
        #expect(throws: AssertedStates.Refused.self) { try states.enter("build", client: 2) }
    }

    @Test func oneThatComesWhileTheHolderLeavesIsAnnouncedWhenItGetsToTheFront() throws {
        var states = AssertedStates()
        let first = try states.enter("build", client: 1)
        _ = states.asserted(first)
        states.leaving(first)
        let second = try states.enter("build", client: 2)
        let announcedAtOnce = states.asserted(second)
        #expect(!announcedAtOnce)
        #expect(states.all.map(\.disposition) == [.pendingLeave, .asserted])
        let (removed, front) = states.remove(first)
        #expect(removed?.client == 1)
        #expect(front?.id == second)
        #expect(states.held(by: 2).map(\.name) == ["build"])
    }
}
