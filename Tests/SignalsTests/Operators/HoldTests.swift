import Dispatch
import Testing
@testable import Signals
import TestSupport

@Suite struct HoldTests {
    /// A marble condition: `t` holds, `f` lets go.
    private func condition(_ marbles: String, _ scheduler: TestScheduler) -> (MarbleSource, Signal<Bool>) {
        let source = scheduler.source(marbles)
        return (source, source.signal.map { $0 == "t" })
    }

    @Test func holdsValuesWhileTheConditionHoldsThenSendsThemInOrder() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c---d-|")
        let (_, busy) = condition("--t---f-----", scheduler)
        #expect(record(scheduler, source.signal.hold(while: busy)) == "-a----(bc)--d-|")
    }

    @Test func valuesPassBeforeTheConditionSaysAnything() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-|")
        let (_, busy) = condition("------", scheduler)
        #expect(record(scheduler, source.signal.hold(while: busy)) == "-a-b-|")
    }

    @Test func aConditionThatHoldsAtOnceHoldsTheFirstValues() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b----|")
        let (_, busy) = condition("t----f---", scheduler)
        #expect(record(scheduler, source.signal.hold(while: busy)) == "-----(ab)--|")
    }

    @Test func repeatedTruesAndFalsesChangeNothing() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a--b--c-|")
        let (_, busy) = condition("ft-t-f-f--", scheduler)
        #expect(record(scheduler, source.signal.hold(while: busy)) == "-----(ab)-c-|")
    }

    @Test func completionSendsWhatIsHeldThenCompletes() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b|")
        let (condition, busy) = condition("t-------", scheduler)
        #expect(record(scheduler, source.signal.hold(while: busy)) == "----(ab|)")
        #expect(condition.active == 0)
    }

    @Test func theConditionCompletingOpensTheGateForGood() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a--b-c-|")
        let (_, busy) = condition("t--|", scheduler)
        #expect(record(scheduler, source.signal.hold(while: busy)) == "---ab-c-|")
    }

    @Test func anErrorFromEitherSideDropsWhatIsHeld() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-----|")
        let (_, busy) = condition("t---#", scheduler)
        #expect(record(scheduler, source.signal.hold(while: busy)) == "----#")
        let other = TestScheduler()
        let failing = other.source("-a-#")
        let (_, busyToo) = condition("t------", other)
        #expect(record(other, failing.signal.hold(while: busyToo)) == "---#")
    }

    @Test func disposingDisposesBothAndDropsWhatIsHeld() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c-|")
        let (gate, busy) = condition("t-------f", scheduler)
        #expect(record(scheduler, disposeAt: 4, horizon: 10, source.signal.hold(while: busy)) == "")
        #expect(source.active == 0 && gate.active == 0)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func theBatchingFormSendsWhatWasHeldAsOneValue() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b-c---d-|")
        let (_, busy) = condition("--t---f-----", scheduler)
        let output = record(scheduler, source.signal.hold(while: busy, into: "") { $0 += $1 }.map { "[" + $0 + "]" })
        #expect(output == "-[a]----[bc]--[d]-|")
    }

    @Test func theBatchingFormSendsNothingWhenNothingWasHeld() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-----b-|")
        let (_, busy) = condition("--t-f-----", scheduler)
        let output = record(scheduler, source.signal.hold(while: busy, into: "") { $0 += $1 }.map { "[" + $0 + "]" })
        #expect(output == "-[a]-----[b]-|")
    }

    @Test func theBatchingFormSendsWhatIsHeldBeforeCompleting() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-a-b|")
        let (_, busy) = condition("t------", scheduler)
        let output = record(scheduler, source.signal.hold(while: busy, into: "") { $0 += $1 }.map { "[" + $0 + "]" })
        #expect(output == "----([ab]|)")
    }

    @Test func valuesFromAnotherThreadKeepTheirOrderAcrossTheGate() {
        let values = PublishSubject<Int>(), busy = PublishSubject<Bool>()
        let (log, _) = values.asSignal().hold(while: busy.asSignal()).log()
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            for index in 0..<10_000 {
                if side == 0 { values.sendNext(index) } else { busy.sendNext(index % 2 == 0) }
            }
        }
        busy.sendNext(false)
        #expect(log.values == Array(0..<10_000))
    }
}
