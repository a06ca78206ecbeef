import Dispatch
import Testing
@testable import Signals
import TestSupport

/// Operators with several inputs, driven from several threads at once (run
/// under `--sanitize=thread` too), and re-entrant sends.
@Suite struct ConcurrencyTests {
    @Test func flatMapLatestSwitchingWhileTheInnerSendsOnAnotherThread() {
        let outer = PublishSubject<Int>(), inner = PublishSubject<Int>()
        let (log, subscription) = outer.asSignal().flatMapLatest { generation in
            inner.asSignal().map { generation * 100_000 + $0 }
        }.log()
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            if side == 0 {
                for generation in 1...200 { outer.sendNext(generation) }
            } else {
                for value in 0..<20_000 { inner.sendNext(value) }
            }
        }
        // Generations only move forward: nothing from a replaced inner came
        // after a newer one's values.
        let generations = log.values.map { $0 / 100_000 }
        #expect(zip(generations, generations.dropFirst()).allSatisfy { $0 <= $1 })
        subscription.dispose()
    }

    @Test func throttleWithValuesAndTimeOnTwoThreads() {
        let scheduler = TestScheduler()
        let subject = PublishSubject<Int>()
        let (log, subscription) = subject.asSignal()
            .throttle(.seconds(1), latest: true, scheduler: scheduler).log()
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            if side == 0 {
                for value in 0..<20_000 { subject.sendNext(value) }
            } else {
                for _ in 0..<2_000 { scheduler.advance(by: .seconds(1)) }
            }
        }
        let values = log.values
        #expect(values.first == 0)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
        subscription.dispose()
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aSendFromInsideTheObserverIsQueuedNotNested() {
        let a = PublishSubject<Int>(), b = PublishSubject<Int>()
        let received = Locked<[String]>([])
        Signal.combineLatest(a.asSignal(), b.asSignal()).subscribe(onNext: { pair in
            received.withLock { $0.append("\(pair.0)\(pair.1)") }
            if pair.0 == 1 { a.sendNext(2) }   // re-entrant: delivered after this value
        })
        a.sendNext(1)
        b.sendNext(1)
        #expect(received.withLock { $0 } == ["11", "21"])
    }
}
