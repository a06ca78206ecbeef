import Testing
@testable import WatchSources

/// When git is asked again what a client's repositories track: one run
/// at a time, one more for what changed meanwhile, nothing once stopped.
@Suite struct TrackedRefreshStateTests {
    @Test func aChangeWhileIdleStartsGit() {
        var state = TrackedRefreshState.idle
        let starts1 = state.mayHaveChanged()
        #expect(starts1)
        #expect(state == .running)
        let answer1 = state.answered()
        #expect(answer1 == (deliver: true, runAgain: false))
        #expect(state == .idle)
    }

    /// However many changes come while git runs, one more run follows its answer.
    @Test func changesWhileRunningAskForOneMoreRun() {
        var state = TrackedRefreshState.idle
        _ = state.mayHaveChanged()
        let starts2 = state.mayHaveChanged()
        #expect(!starts2)
        let starts3 = state.mayHaveChanged()
        #expect(!starts3)
        #expect(state == .again)
        let answer2 = state.answered()
        #expect(answer2 == (deliver: true, runAgain: true))
        #expect(state == .running)
        let answer3 = state.answered()
        #expect(answer3 == (deliver: true, runAgain: false))
        #expect(state == .idle)
    }

    @Test func onceStoppedNothingStartsAndNothingIsDelivered() {
        for before in [TrackedRefreshState.idle, .running, .again] {
            var state = before
            state.stop()
            let starts4 = state.mayHaveChanged()
            #expect(!starts4)
            let answer4 = state.answered()
            #expect(answer4 == (deliver: false, runAgain: false))
            state.notStarted()
            #expect(state.isStopped)
        }
    }

    /// No thread for git: the next change tries again.
    @Test func gitNotStartedLeavesItIdle() {
        var state = TrackedRefreshState.idle
        _ = state.mayHaveChanged()
        state.notStarted()
        #expect(state == .idle)
        let starts5 = state.mayHaveChanged()
        #expect(starts5)
    }
}
