import Testing
@testable import Signals
import TestSupport

@Suite struct SkipUntilTests {
    @Test func forwardsOnlyAfterTheTriggerSends() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c-d-|"), trigger = scheduler.source("----x-y")
        #expect(record(scheduler, horizon: 4, source.signal.skipUntil(trigger.signal)) == "")
        #expect(trigger.active == 0)
        #expect(record(scheduler, source.signal.skipUntil(trigger.signal)) == "-----c-d-|")
    }

    @Test func forwardsTheTriggersError() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-|"), trigger = scheduler.source("--#")
        #expect(record(scheduler, source.signal.skipUntil(trigger.signal)) == "--#")
        #expect(source.active == 0)
    }

    @Test func theSourcesCompletionEndsIt() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-|"), trigger = scheduler.source("-----x")
        #expect(record(scheduler, source.signal.skipUntil(trigger.signal)) == "---|")
        #expect(trigger.active == 0)
    }

    @Test func disposingDisposesBoth() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-|"), trigger = scheduler.source("--x")
        #expect(record(scheduler, disposeAt: 3, horizon: 3, source.signal.skipUntil(trigger.signal)) == "---b")
        #expect(source.active == 0 && trigger.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
