@testable import RecipeKit
import Testing

@Suite struct BatchedTests {
    private func event(_ path: String) -> FileEvent {
        FileEvent(path: FilePath(path), kind: .modified, isDirectory: false, cookie: 0)
    }

    /// Subscribes `batched` on a subject and records the batches' paths.
    private func harness(quiet: Duration, maxWait: Duration) -> (PublishSubject<FileEvent>, TestScheduler, Locked<[[String]]>, Locked<Bool>) {
        let scheduler = TestScheduler()
        let subject = PublishSubject<FileEvent>()
        let batches = Locked<[[String]]>([])
        let completed = Locked(false)
        subject.asSignal().batched(quiet, maxWait: maxWait, scheduler: scheduler).subscribe(
            onNext: { batch in batches.withLock { $0.append(batch.paths.map(\.string)) } },
            onCompleted: { completed.withLock { $0 = true } }
        )
        return (subject, scheduler, batches, completed)
    }

    @Test func aBurstBecomesOneBatchAfterTheQuietPeriod() {
        let (subject, scheduler, batches, _) = harness(quiet: .milliseconds(50), maxWait: .seconds(1))
        for index in 0..<100 {
            subject.sendNext(event("/f\(index % 3)"))
            scheduler.advance(by: .milliseconds(1))
        }
        // The last event came at 99 ms; the quiet period ends at 149 ms.
        scheduler.advance(by: .milliseconds(48))
        #expect(batches.withLock { $0 }.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(batches.withLock { $0 } == [["/f0", "/f1", "/f2"]])
    }

    @Test func maxWaitCapsASteadyStream() {
        let (subject, scheduler, batches, _) = harness(quiet: .milliseconds(50), maxWait: .milliseconds(200))
        for index in 0..<50 {
            subject.sendNext(event("/f\(index)"))
            scheduler.advance(by: .milliseconds(10))
        }
        let sizes = batches.withLock { $0 }.map(\.count)
        #expect(sizes.count == 2)
        #expect(sizes.first == 20)
    }

    @Test func completionSendsTheOpenBatchFirst() {
        let (subject, scheduler, batches, completed) = harness(quiet: .seconds(1), maxWait: .seconds(5))
        subject.sendNext(event("/a"))
        subject.sendCompleted()
        #expect(batches.withLock { $0 } == [["/a"]])
        #expect(completed.withLock { $0 })
        scheduler.advance(by: .seconds(10))
        #expect(batches.withLock { $0 }.count == 1)
    }

    @Test func disposingDropsTheOpenBatch() {
        let scheduler = TestScheduler()
        let subject = PublishSubject<FileEvent>()
        let count = Locked(0)
        let subscription = subject.asSignal().batched(.milliseconds(10), scheduler: scheduler)
            .subscribe(onNext: { _ in count.withLock { $0 += 1 } })
        subject.sendNext(event("/a"))
        subscription.dispose()
        scheduler.advance(by: .seconds(2))
        #expect(count.withLock { $0 } == 0)
    }
}
