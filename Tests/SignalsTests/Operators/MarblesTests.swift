import Testing
@testable import Signals
import TestSupport

/// The marble helper itself: what it plays is what it records.
@Suite struct MarblesTests {
    @Test func playsAndRecordsTheSameDiagram() {
        let scheduler = TestScheduler()
        #expect(record(scheduler, scheduler.source("-a-(bc)--d|").signal) == "-a-(bc)--d|")
    }

    @Test func recordsAnError() {
        let scheduler = TestScheduler()
        #expect(record(scheduler, scheduler.source("--a#").signal) == "--a#")
    }

    @Test func disposesAfterTheTicksEvents() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c|")
        #expect(record(scheduler, disposeAt: 3, source.signal) == "-a-b")
        #expect(source.active == 0)
    }

    @Test func theBriefsThrottleExample() {
        let scheduler = TestScheduler()
        let output = marbles("-a-b--c|", scheduler) { $0.throttle(.seconds(5), latest: true, scheduler: scheduler) }
        #expect(output == "-a----c|")
    }
}
