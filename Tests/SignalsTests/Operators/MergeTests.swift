import Dispatch
import Testing
@testable import Signals
import TestSupport

@Suite struct MergeTests {
    @Test func forwardsValuesAsTheyArrive() {
        let scheduler = TestScheduler()
        let a = scheduler.source("-1---3-|"), b = scheduler.source("---2---4-|")
        #expect(record(scheduler, Signal.merge([a.signal, b.signal])) == "-1-2-3-4-|")
    }

    @Test func completesWhenAllHaveCompleted() {
        let scheduler = TestScheduler()
        let a = scheduler.source("-1|"), b = scheduler.source("---2---|")
        #expect(record(scheduler, a.signal.merge(b.signal)) == "-1-2---|")
    }

    @Test func theFirstErrorEndsItAndDisposesTheRest() {
        let scheduler = TestScheduler()
        let a = scheduler.source("-1-#"), b = scheduler.source("--2--4|")
        #expect(record(scheduler, a.signal.merge(b.signal)) == "-12#")
        #expect(b.active == 0)
    }

    @Test func disposingDisposesEverySource() {
        let scheduler = TestScheduler()
        let a = scheduler.source("-1-3-|"), b = scheduler.source("--2-4-|")
        #expect(record(scheduler, disposeAt: 2, horizon: 2, a.signal.merge(b.signal)) == "-12")
        #expect(a.active == 0 && b.active == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func valuesSentOnTwoThreadsAllArriveOnce() {
        let a = PublishSubject<Int>(), b = PublishSubject<Int>()
        let (log, _) = a.asSignal().merge(b.asSignal()).log()
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            let subject = side == 0 ? a : b
            for value in 0..<5_000 { subject.sendNext(side * 5_000 + value) }
            subject.sendCompleted()
        }
        #expect(log.values.sorted() == Array(0..<10_000))
        #expect(log.descriptions.last == "completed")
    }
}
