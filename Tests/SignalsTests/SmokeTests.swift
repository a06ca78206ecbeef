import Testing
@testable import Signals

@Suite struct SmokeTests {
    @Test func justDeliversThenCompletes() {
        let events = Locked<[String]>([])
        Signal.just(1).map { $0 + 1 }.subscribe { event in events.withLock { $0.append("\(event)") } }
        #expect(events.withLock { $0 } == ["next(2)", "completed"])
    }
}
