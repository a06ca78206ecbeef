import Glibc
@testable import RecipeKit
import Testing
import TestSupport

/// Issue 12: a thousand restarts, each of a command that leaves a
/// grandchild, leave no orphan and no zombie; issue 27: nor when the
/// grandchild is a daemon (setsid: its own group and session).
@Suite struct RestartStormTests {
    @Test(arguments: ["", "setsid "])
    func aThousandRestartsLeaveNoOrphanAndNoZombie(_ daemon: String) {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let subject = PublishSubject<ChangeBatch>()
        // Each run records its shell (the group leader) and a grandchild, then waits.
        let script = daemon + "sleep 300 & echo \"$$ $!\" >> \"$0/pids\"; wait"
        let subscription = subject.asSignal()
            .run(["sh", "-c", script, dir.path], onBusy: .restart, options: RunOptions(statusLines: false, environment: [Self.marker: dir.path]))
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
        // Every group is gone once the subscription is disposed: no orphan
        // runs. With pid_max at 32768 and the rest of the suite spawning
        // meanwhile, a recorded pid may already belong to someone else: a
        // process counts only if it still carries this test's marker.
        let marker = Array("\(Self.marker)=\(dir.path)".utf8)
        let running = pids.filter { pid in
            ProcessStat(pid).map { $0.state != "Z" && $0.state != "X" } ?? false
                && Self.environment(of: pid).contains(marker)
        }
        #expect(running.isEmpty, "left running: \(running)")
        // Every leader was reaped: no zombie of ours.
        let zombies = pids.filter { pid in ProcessStat(pid).map { $0.state == "Z" && $0.parent == getpid() } ?? false }
        #expect(zombies.isEmpty, "zombies: \(zombies)")
    }

    /// Set in every run's environment, so its processes can be told from
    /// later holders of a reused pid.
    static let marker = "RWATCH_RESTART_STORM"

    /// The environment `pid` was started with, one entry per element.
    static func environment(of pid: Int32) -> [[UInt8]] {
        let fd = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return bytes.split(separator: 0).map(Array.init)
    }
}
