import Glibc
@testable import RecipeKit
import Testing
import TestSupport

/// Issue 12: a thousand restarts, each of a command that leaves a
/// grandchild, leave no orphan and no zombie.
@Suite struct RestartStormTests {
    @Test func aThousandRestartsLeaveNoOrphanAndNoZombie() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let subject = PublishSubject<ChangeBatch>()
        // Each run records its shell (the group leader) and a grandchild, then waits.
        let script = "sleep 300 & echo \"$$ $!\" >> \"$0/pids\"; wait"
        let subscription = subject.asSignal()
            .run(["sh", "-c", script, dir.path], onBusy: .restart, options: RunOptions(statusLines: false))
            .subscribe()
        let runs = { dir.read("pids").split(separator: "\n").map { $0.split(separator: " ").compactMap { Int32($0) } } }
        for index in 1...1000 {
            subject.sendNext(ChangeBatch([]))
            guard eventually(.seconds(20), { runs().count == index }) else {
                Issue.record("restart \(index) did not start")
                break
            }
        }
        subscription.dispose()
        let pids = runs().flatMap { $0 }
        #expect(pids.count == 2000)
        // Every group is gone once the subscription is disposed: no orphan runs.
        let running = pids.filter { pid in ProcessStat(pid).map { $0.state != "Z" && $0.state != "X" } ?? false }
        #expect(running.isEmpty, "left running: \(running)")
        // Every leader was reaped: no zombie of ours.
        let zombies = pids.filter { pid in ProcessStat(pid).map { $0.state == "Z" && $0.parent == getpid() } ?? false }
        #expect(zombies.isEmpty, "zombies: \(zombies)")
    }
}
