import Dispatch
import Testing
@testable import Signals
import TestSupport

/// Renders a pair as two characters in marble output.
func pair(_ value: (String, String)) -> String { value.0 + value.1 }

@Suite struct ZipTests {
    @Test func pairsValuesInOrder() {
        let scheduler = TestScheduler()
        let a = scheduler.source("-1-2-3-|"), b = scheduler.source("---x---y-z-|")
        #expect(record(scheduler, Signal.zip(a.signal, b.signal).map(pair)) == "---1x---2y-(3z|)")
    }

    @Test func completesWhenOneSideCompletedWithAnEmptyBuffer() {
        let scheduler = TestScheduler()
        let a = scheduler.source("-1|"), b = scheduler.source("---x-y-z-|")
        #expect(record(scheduler, a.signal.zip(b.signal).map(pair)) == "---(1x|)")
        #expect(b.active == 0)
    }

    @Test func completesAtOnceWhenASideCompletesEmpty() {
        let scheduler = TestScheduler()
        let a = scheduler.source("--|"), b = scheduler.source("-x-y-|")
        #expect(record(scheduler, a.signal.zip(b.signal).map(pair)) == "--|")
    }

    @Test func forwardsAnErrorAtOnce() {
        let scheduler = TestScheduler()
        let a = scheduler.source("-1-2-3|"), b = scheduler.source("-x-#")
        #expect(record(scheduler, a.signal.zip(b.signal).map(pair)) == "-1x-#")
        #expect(a.active == 0)
    }

    @Test func disposingDisposesBoth() {
        let scheduler = TestScheduler()
        let a = scheduler.source("-1-2-|"), b = scheduler.source("-x-y-|")
        #expect(record(scheduler, disposeAt: 2, horizon: 2, a.signal.zip(b.signal).map(pair)) == "-1x")
        #expect(a.active == 0 && b.active == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func keepsPairsInOrderWhenSidesSendOnTwoThreads() {
        let a = PublishSubject<Int>(), b = PublishSubject<Int>()
        let (log, _) = Signal.zip(a.asSignal(), b.asSignal()).log()
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            for value in 0..<10_000 {
                if side == 0 { a.sendNext(value) } else { b.sendNext(value) }
            }
        }
        let pairs = log.values
        #expect(pairs.count == 10_000)
        #expect(pairs.allSatisfy { $0.0 == $0.1 })
        #expect(pairs.map(\.0) == Array(0..<10_000))
    }
}
