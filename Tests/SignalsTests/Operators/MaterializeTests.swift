import Testing
@testable import Signals
import TestSupport

@Suite struct MaterializeTests {
    private static func name(_ event: Event<String>) -> String {
        switch event {
        case .next(let value): return value
        case .error: return "E"
        case .completed: return "C"
        }
    }

    @Test func turnsEveryEventIntoAValue() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-b-|", scheduler) { $0.materialize().map(Self.name) } == "-a-b-(C|)")
    }

    @Test func turnsTheErrorIntoAValueAndCompletes() {
        let scheduler = TestScheduler()
        #expect(marbles("-a-#", scheduler) { $0.materialize().map(Self.name) } == "-a-(E|)")
    }

    @Test func disposingReleasesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c-|")
        let output = record(scheduler, disposeAt: 2, horizon: 2, source.signal.materialize().map(Self.name))
        #expect(output == "-a")
        #expect(source.active == 0)
    }
}
