import Testing
@testable import WatchSources

/// When the poll thread passes its jobs and opens fences, without a
/// thread or a clock: `PollSchedule` at the instants the test gives.
@Suite struct PollScheduleTests {
    private let ms: UInt64 = 1_000_000

    @Test func aFenceWithNoJobOpensAtOnce() {
        var schedule = PollSchedule<String>()
        let opens = schedule.fence("f", jobs: 0)
        #expect(opens)
        #expect(!schedule.passesEveryJob)
    }

    /// What changed before the fence is reported by the second pass at
    /// the latest (the first may have been under way).
    @Test func aFenceOpensAfterTwoRoundsOfEveryJob() {
        var schedule = PollSchedule<String>()
        let opens = schedule.fence("f", jobs: 3)
        #expect(!opens)
        #expect(schedule.passesEveryJob)
        let first = schedule.roundEnded(holdsNewFiles: false)
        #expect(first.isEmpty)
        #expect(schedule.passesEveryJob)
        let second = schedule.roundEnded(holdsNewFiles: false)
        #expect(second == ["f"])
        #expect(schedule.fences.isEmpty)
    }

    /// A new file held back (`NewFileHold`) is announced by a later pass:
    /// the fence waits for it, without making every job pass meanwhile.
    @Test func aFenceWaitsForHeldNewFilesAtTheJobsOwnPace() {
        var schedule = PollSchedule<String>()
        _ = schedule.fence("f", jobs: 1)
        var opened: [[String]] = []
        for holds in [true, true, true, false] {
            opened.append(schedule.roundEnded(holdsNewFiles: holds))
            if opened.count == 2 { #expect(!schedule.passesEveryJob) }
        }
        #expect(opened == [[], [], [], ["f"]])
    }

    @Test func everyFenceOpensWhenTheLastJobGoes() {
        var schedule = PollSchedule<String>()
        _ = schedule.fence("a", jobs: 1)
        _ = schedule.fence("b", jobs: 1)
        let opened = schedule.noJobs()
        #expect(opened == ["a", "b"])
        #expect(schedule.fences.isEmpty)
    }

    /// A pass starts every interval; a pass longer than half the interval
    /// pushes the next one back, so that a huge tree never takes a whole core.
    @Test func aSlowPassPushesTheNextOneBack() {
        let interval = Duration.milliseconds(1000)
        #expect(PollSchedule<String>.nextDue(started: 0, finished: 200 * ms, interval: interval) == 1000 * ms)
        #expect(PollSchedule<String>.nextDue(started: 0, finished: 800 * ms, interval: interval) == 1300 * ms)
    }

    @Test func theWaitEndsAtTheNextPass() {
        let now = 10_000 * ms
        #expect(PollSchedule<String>.timeout(now: now, nextDue: now + 250 * ms) == 250)
        #expect(PollSchedule<String>.timeout(now: now, nextDue: now + 250 * ms + 1) == 251)
        #expect(PollSchedule<String>.timeout(now: now, nextDue: now - 1) == 0)
        #expect(PollSchedule<String>.timeout(now: now, nextDue: now + 3_600_000 * ms) == 60_000)
    }
}
