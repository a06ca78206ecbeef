import Testing
@testable import Signals
import TestSupport

@Suite struct TakeUntilTests {
    @Test func completesWhenTheTriggerSendsAndDisposesBoth() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c-d-|"), trigger = scheduler.source("-----x-")
        #expect(record(scheduler, source.signal.takeUntil(trigger.signal)) == "-a-b-|")
        #expect(source.active == 0 && trigger.active == 0)
    }

    @Test func forwardsTheTriggersError() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c-|"), trigger = scheduler.source("--#")
        #expect(record(scheduler, source.signal.takeUntil(trigger.signal)) == "-a#")
        #expect(source.active == 0)
    }

    @Test func ignoresTheTriggersCompletion() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-|"), trigger = scheduler.source("--|")
        #expect(record(scheduler, source.signal.takeUntil(trigger.signal)) == "-a-b-|")
    }

    @Test func disposingDisposesBoth() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-|"), trigger = scheduler.source("-----x")
        #expect(record(scheduler, disposeAt: 2, horizon: 2, source.signal.takeUntil(trigger.signal)) == "-a")
        #expect(source.active == 0 && trigger.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
