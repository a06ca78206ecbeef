import Testing
@testable import Signals

@Suite struct DurationUnitsTests {
    @Test func wholeNanosecondsAndMillisecondsRoundDown() {
        #expect(Duration.milliseconds(1500).clampedNanoseconds == 1_500_000_000)
        #expect(Duration.nanoseconds(1_999_999).clampedMilliseconds == 1)
        #expect(Duration.seconds(3).clampedMilliseconds == 3000)
    }

    @Test func aNegativeDurationIsDueAtOnce() {
        #expect(Duration.milliseconds(-1).clampedNanoseconds == 0)
        #expect(Duration.seconds(-2).clampedMilliseconds == 0)
        #expect(Duration.zero.clampedNanoseconds == 0)
    }

    @Test func aHugeDurationIsCappedSoThatAddingItCannotOverflow() {
        #expect(Duration.seconds(Int64.max).clampedNanoseconds == Int.max / 2)
        #expect(Duration.seconds(Int64.max).dispatchInterval == .never)
        #expect(Duration.seconds(1).dispatchInterval == .nanoseconds(1_000_000_000))
    }
}
