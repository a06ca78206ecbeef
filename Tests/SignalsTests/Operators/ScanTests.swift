import Testing
@testable import Signals
import TestSupport

@Suite struct ScanTests {
    @Test func emitsEveryIntermediateResult() {
        let scheduler = TestScheduler()
        #expect(marbles("-1-2-3-|", scheduler) { $0.map { Int($0)! }.scan(0, +) } == "-1-3-6-|")
    }

    @Test func forwardsTheError() {
        let scheduler = TestScheduler()
        #expect(marbles("-1-2-#", scheduler) { $0.map { Int($0)! }.scan(0, +) } == "-1-3-#")
    }

    @Test func eachSubscriptionStartsFromTheSeed() {
        let scheduler = TestScheduler()
        let sums = scheduler.source("-1-2|").signal.map { Int($0)! }.scan(0, +)
        #expect(record(scheduler, sums) == "-1-3|")
        #expect(record(scheduler, sums) == "-1-3|")
    }

    @Test func disposingReleasesTheSource() {
        let scheduler = TestScheduler()
        let source = scheduler.source("-1-2-3-|")
        let output = record(scheduler, disposeAt: 3, horizon: 3, source.signal.map { Int($0)! }.scan(0, +))
        #expect(output == "-1-3")
        #expect(source.active == 0)
    }
}
