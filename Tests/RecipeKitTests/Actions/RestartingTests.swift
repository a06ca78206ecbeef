import Glibc
@testable import RecipeKit
import Testing
import TestSupport

/// `restarting`: a server started only after a run that passed, left
/// serving after one that failed.
@Suite struct RestartingTests {
    private func result(_ code: Int32) -> RunResult {
        RunResult(steps: [RunResult.Step(name: "build", arguments: ["build"], status: .exited(code), duration: .zero)], batch: nil)
    }

    @Test func theServerStartsAfterAPassAndKeepsServingAfterAFailure() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let builds = PublishSubject<RunResult>()
        let results = Locked<[RunResult]>([])
        let subscription = builds.asSignal()
            .restarting(["sh", "-c", "echo $$ >> \"$0\"; exec sleep 1000", dir.file("servers")], options: RunOptions(statusLines: false))
            .subscribe(onNext: { result in results.withLock { $0.append(result) } })
        defer { subscription.dispose() }
        let servers = { dir.read("servers").split(separator: "\n").compactMap { pid_t($0) } }
        builds.sendNext(result(1))
        // The failure passes through, and no server starts for it.
        #expect(eventually { results.withLock { $0.count } == 1 })
        #expect(servers().isEmpty)
        builds.sendNext(result(0))
        #expect(eventually { servers().count == 1 })
        builds.sendNext(result(2))
        #expect(eventually { results.withLock { $0.count } == 2 })
        #expect(servers().count == 1 && ProcessStat(servers()[0]).map { $0.state != "Z" } == true)
        builds.sendNext(result(0))
        #expect(eventually { servers().count == 2 })
        // The first server was stopped before the second started.
        #expect(ProcessStat(servers()[0]) == nil || ProcessStat(servers()[0])?.state == "Z")
    }
}
