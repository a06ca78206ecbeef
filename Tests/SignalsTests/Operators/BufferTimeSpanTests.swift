import Testing
@testable import Signals
import TestSupport

@Suite struct BufferTimeSpanTests {
    @Test func emitsEverySpanOrWhenFull() {
        let scheduler = TestScheduler()
        let output = marbles("-a-b-c-d----e-|", scheduler) {
            $0.buffer(timeSpan: .seconds(4), count: 2, scheduler: scheduler).map(joined)
        }
        #expect(output == "---[ab]---[cd]---[]--([e]|)")
    }

    @Test func anErrorPassesAtOnceAndDropsTheBuffer() {
        let scheduler = TestScheduler()
        let output = marbles("-a-#", scheduler) { $0.buffer(timeSpan: .seconds(4), scheduler: scheduler).map(joined) }
        #expect(output == "---#")
        #expect(scheduler.pendingCount == 0)
    }

    @Test func completionEmitsWhatWasCollected() {
        let scheduler = TestScheduler()
        let output = marbles("-ab|", scheduler) { $0.buffer(timeSpan: .seconds(4), scheduler: scheduler).map(joined) }
        #expect(output == "---([ab]|)")
        #expect(scheduler.pendingCount == 0)
    }

    @Test func disposingCancelsTheTimer() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-|")
        let output = record(scheduler, disposeAt: 2, horizon: 2,
                            source.signal.buffer(timeSpan: .seconds(4), scheduler: scheduler).map(joined))
        #expect(output == "")
        #expect(source.active == 0)
        #expect(scheduler.pendingCount == 0)
    }
}
