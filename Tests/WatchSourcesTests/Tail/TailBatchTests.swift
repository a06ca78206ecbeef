@testable import Signals
@testable import WatchSources
import SystemPackage
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// `Tail.followBatches`: the same lines as `follow`, grouped by read.
@Suite struct TailBatchTests {
    @Test func everyLineArrivesOnceInOrderInFewBatches() throws {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/app.log"
        writeFile(log, (0..<20_000).map { "line \($0)\n" }.joined())
        let batches = Locked<[[Tail.Line]]>([])
        let subscription = Tail.followBatches([FilePath(log)], from: .start).subscribe(onNext: { batch in
            batches.withLock { $0.append(batch) }
        })
        defer { subscription.dispose() }
        #expect(eventually { batches.withLock { $0.joined().count } == 20_000 })
        writeFile(log, "half", append: true)
        writeFile(log, " and end\n", append: true)
        #expect(eventually { batches.withLock { $0.joined().count } == 20_001 })
        let all = batches.withLock { $0 }
        #expect(all.joined().map(\.text) == (0..<20_000).map { "line \($0)" } + ["half and end"])
        #expect(all.allSatisfy { !$0.isEmpty })
        // 20,000 short lines are one read (1 MiB at most each), not 20,000 events.
        #expect(all.count < 10)
    }

    @Test func aPatternKeepsOnlyMatchingLines() throws {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/app.log"
        writeFile(log, "ok\nERROR one\nok\nerror two\n")
        let texts = Locked<[String]>([])
        let subscription = Tail.followBatches([FilePath(log)], from: .start, matching: try LinePattern("error", ignoringCase: true))
            .subscribe(onNext: { batch in texts.withLock { $0 += batch.map(\.text) } })
        defer { subscription.dispose() }
        #expect(eventually { texts.withLock { $0 } == ["ERROR one", "error two"] })
    }
}
