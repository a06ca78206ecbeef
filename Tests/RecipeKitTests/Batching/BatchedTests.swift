@testable import RecipeKit
import Synchronization
import Testing
import TestSupport

@Suite struct BatchedTests {
    /// A marble source's values as modifications of `/a`, `/b`, … batched
    /// on virtual time; a batch is rendered as its file names in brackets.
    private func batches(
        _ source: String, quiet: Int, maxWait: Int, _ scheduler: TestScheduler, disposeAt: Int? = nil
    ) -> String {
        marbles(source, scheduler, disposeAt: disposeAt, symbol: { batch in
            "[" + batch.paths.map { String($0.string.dropFirst()) }.joined() + "]"
        }) {
            $0.map { FileEvent(path: FilePath("/" + $0), kind: .modified) }
                .batched(.ticks(quiet), maxWait: .ticks(maxWait), scheduler: scheduler)
        }
    }

    @Test func aBurstBecomesOneBatchAfterTheQuietPeriod() {
        let scheduler = TestScheduler()
        let output = batches("-abcabcabca------|", quiet: 4, maxWait: 100, scheduler)
        #expect(output == "--------------[abc]--|")
    }

    @Test func maxWaitCapsASteadyStream() {
        let scheduler = TestScheduler()
        let output = batches("-a-b-c-d-e-f-g-h-i-|", quiet: 3, maxWait: 6, scheduler)
        #expect(output == "-------[abcd]-------[efgh]---([i]|)")
    }

    @Test func aBatchHoldsEachPathOnceInFirstSeenOrder() {
        let scheduler = TestScheduler()
        let output = batches("-bab-ab-----|", quiet: 4, maxWait: 100, scheduler)
        #expect(output == "----------[ba]-|")
    }

    /// A temporary file made and renamed over the real one within the
    /// window (`t` then `r` below) leaves the batch; a batch left with
    /// nothing (a probe made and deleted, `p` then `d`) is not sent.
    @Test func aFileMadeAndGoneWithinTheWindowIsNoChange() {
        let scheduler = TestScheduler()
        let temporary = FilePath("/a.tmp.1")
        let output = marbles("-t--r------p-d------|", scheduler, symbol: { batch in
            "[" + batch.events.map { "\($0.kind.rawValue) \($0.path)" }.joined(separator: ",") + "]"
        }) {
            $0.map { step -> [FileEvent] in
                switch step {
                case "t": return [FileEvent(path: temporary, kind: .created), FileEvent(path: temporary, kind: .closedWrite)]
                case "r": return [FileEvent(path: temporary, kind: .movedFrom, cookie: 5), FileEvent(path: "/a", kind: .movedTo, cookie: 5)]
                case "p": return [FileEvent(path: "/4913", kind: .created)]
                default: return [FileEvent(path: "/4913", kind: .deleted)]
                }
            }
            .batched(.ticks(3), maxWait: .ticks(100), scheduler: scheduler)
        }
        #expect(output == "-------[movedTo /a]------------|")
    }

    /// The close of a write already reported (released while its writer
    /// kept the file open) is no new change: it opens no batch of its own,
    /// in either form of `batched`, and joins none.
    @Test func aCloseThatCompletesAReportedWriteMakesNoBatch() {
        let scheduler = TestScheduler()
        let close = FileEvent(path: FilePath("/a"), kind: .closedWrite, closesReportedWrite: true)
        let output = marbles("-a---c----b-c----|", scheduler, symbol: { batch in
            "[" + batch.events.map { String($0.path.string.dropFirst()) + ($0.kind == .closedWrite ? "!" : "") }.joined() + "]"
        }) {
            $0.map { name in name == "c" ? close : FileEvent(path: FilePath("/" + name), kind: .modified) }
                .batched(.ticks(2), maxWait: .ticks(100), scheduler: scheduler)
        }
        #expect(output == "---[a]--------[b]----|")
        let arrays = TestScheduler()
        let arrayOutput = marbles("-a---c----b-c----|", arrays, symbol: { batch in
            "[" + batch.events.map { String($0.path.string.dropFirst()) + ($0.kind == .closedWrite ? "!" : "") }.joined() + "]"
        }) {
            $0.map { name in name == "c" ? [close] : [FileEvent(path: FilePath("/" + name), kind: .modified), close] }
                .batched(.ticks(2), maxWait: .ticks(100), scheduler: arrays)
        }
        #expect(arrayOutput == "---[a]--------[b]----|")
    }

    @Test func completionSendsTheOpenBatchFirst() {
        let scheduler = TestScheduler()
        let output = batches("-a|", quiet: 4, maxWait: 8, scheduler)
        #expect(output == "--([a]|)")
        #expect(scheduler.pendingCount == 0)
    }

    @Test func anErrorSendsTheOpenBatchFirst() {
        let scheduler = TestScheduler()
        let output = batches("-a#", quiet: 4, maxWait: 8, scheduler)
        #expect(output == "--([a]#)")
    }

    @Test func disposingDropsTheOpenBatch() {
        let scheduler = TestScheduler()
        let output = batches("-a-------|", quiet: 4, maxWait: 8, scheduler, disposeAt: 2)
        #expect(output == "")
        #expect(scheduler.pendingCount == 0)
    }

    /// The timer's flush and the source's completion race on two threads;
    /// whichever wins, the batch is sent exactly once, before completion
    /// (a flush decided as completion arrived used to be dropped).
    @Test func aFlushRacingCompletionIsNotLost() {
        let scheduler = QueueScheduler(label: "rwatch.test.batched-race")
        for _ in 0..<10_000 {
            let subject = PublishSubject<FileEvent>()
            let received = Locked<[FilePath]>([])
            let ended = Atomic<Bool>(false)
            let subscription = subject.asSignal().batched(.zero, maxWait: .zero, scheduler: scheduler).subscribe(
                onNext: { batch in received.withLock { $0.append(contentsOf: batch.paths) } },
                onCompleted: { ended.store(true, ordering: .releasing) }
            )
            subject.sendNext(FileEvent(path: "/a", kind: .modified))
            subject.sendCompleted()
            #expect(eventually { ended.load(ordering: .acquiring) })
            let paths = received.withLock { $0 }
            subscription.dispose()
            #expect(paths == ["/a"])
            if paths != ["/a"] { return }
        }
    }
}
