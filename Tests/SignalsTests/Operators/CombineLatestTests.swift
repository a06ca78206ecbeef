import Dispatch
import Testing
@testable import Signals
import TestSupport

@Suite struct CombineLatestTests {
    @Test func emitsLatestPairsOnceBothHaveAValue() {
        let scheduler = TestScheduler()
        let a = scheduler.source("-1---2-----|"), b = scheduler.source("---x---y-|")
        #expect(record(scheduler, Signal.combineLatest(a.signal, b.signal).map(pair)) == "---1x-2x-2y---|")
    }

    @Test func completesWhenBothHaveCompleted() {
        let scheduler = TestScheduler()
        let a = scheduler.source("-1|"), b = scheduler.source("--x-y-|")
        #expect(record(scheduler, a.signal.combineLatest(b.signal).map(pair)) == "--1x-1y-|")
        #expect(b.active == 0)
    }

    @Test func aSideCompletingWithoutAValueStillWaitsForTheOther() {
        let scheduler = TestScheduler()
        let a = scheduler.source("--|"), b = scheduler.source("-x-y-|")
        #expect(record(scheduler, a.signal.combineLatest(b.signal).map(pair)) == "-----|")
    }

    @Test func forwardsAnErrorAtOnce() {
        let scheduler = TestScheduler()
        let a = scheduler.source("-1-#"), b = scheduler.source("--x---|")
        #expect(record(scheduler, a.signal.combineLatest(b.signal).map(pair)) == "--1x#")
        #expect(b.active == 0)
    }

    @Test func disposingDisposesBoth() {
        let scheduler = TestScheduler()
        let a = scheduler.source("-1-2-|"), b = scheduler.source("-x-y-|")
        #expect(record(scheduler, disposeAt: 2, horizon: 2, a.signal.combineLatest(b.signal).map(pair)) == "-1x")
        #expect(a.active == 0 && b.active == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func theLastPairIsTheLatestOfBothWhenSidesSendOnTwoThreads() {
        let a = PublishSubject<Int>(), b = PublishSubject<Int>()
        let (log, _) = Signal.combineLatest(a.asSignal(), b.asSignal()).log()
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            for value in 0..<10_000 {
                if side == 0 { a.sendNext(value) } else { b.sendNext(value) }
            }
        }
        let pairs = log.values
        #expect(pairs.last.map { $0.0 == 9_999 && $0.1 == 9_999 } == true)
        // Each side's values appear in order: nothing was reordered.
        #expect(zip(pairs, pairs.dropFirst()).allSatisfy { $0.0 <= $1.0 && $0.1 <= $1.1 })
    }
}
