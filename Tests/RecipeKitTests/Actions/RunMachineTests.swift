@testable import RecipeKit
import Testing

@Suite struct RunMachineTests {
    private func batch(_ paths: String...) -> ChangeBatch {
        ChangeBatch(paths.map { FileEvent(path: FilePath($0), kind: .modified, isDirectory: false, cookie: 0) })
    }

    @Test func queueKeepsOnePendingRunCarryingEveryPath() {
        var machine = RunMachine<ChangeBatch>(policy: .queue)
        guard case .start = machine.receive(batch("/a")) else { Issue.record("first trigger should start"); return }
        guard case .none = machine.receive(batch("/b")), case .none = machine.receive(batch("/c")) else {
            Issue.record("busy triggers should wait"); return
        }
        guard case .start(let next) = machine.exited() else { Issue.record("pending run should start"); return }
        #expect(next.paths == ["/b", "/c"])
        guard case .none = machine.exited() else { Issue.record("nothing pending"); return }
    }

    @Test func restartStopsTheGroupAndStartsOnlyAfterItExited() {
        var machine = RunMachine<ChangeBatch>(policy: .restart)
        _ = machine.receive(batch("/a"))
        guard case .stop = machine.receive(batch("/b")) else { Issue.record("should stop the run"); return }
        guard case .none = machine.receive(batch("/c")) else { Issue.record("already stopping"); return }
        guard case .start(let next) = machine.exited() else { Issue.record("restart after exit"); return }
        #expect(next.paths == ["/b", "/c"])
    }

    @Test func restartWhileTheRunIsStillSpawningStopsItAtOnce() {
        // The run's handle exists from the start step on: a stop needs no group id.
        var machine = RunMachine<ChangeBatch>(policy: .restart)
        _ = machine.receive(batch("/a"))
        guard case .stop = machine.receive(batch("/b")) else { Issue.record("stop at once"); return }
        guard case .start(let next) = machine.exited() else { Issue.record("restart after exit"); return }
        #expect(next.paths == ["/b"])
    }

    @Test func ignoreDropsBusyTriggers() {
        var machine = RunMachine<ChangeBatch>(policy: .ignore)
        _ = machine.receive(batch("/a"))
        _ = machine.receive(batch("/b"))
        guard case .none = machine.exited() else { Issue.record("ignored trigger must not run"); return }
    }

    @Test func signalPolicySignalsTheGroupAndDropsTheTrigger() {
        var machine = RunMachine<ChangeBatch>(policy: .signal(1))
        _ = machine.receive(batch("/a"))
        guard case .signal(1) = machine.receive(batch("/b")) else { Issue.record("should signal"); return }
        guard case .none = machine.exited() else { Issue.record("nothing pending"); return }
    }

    @Test func completionWaitsForTheRunningAndPendingRuns() {
        var machine = RunMachine<ChangeBatch>(policy: .queue)
        _ = machine.receive(batch("/a"))
        _ = machine.receive(batch("/b"))
        guard case .none = machine.completed() else { Issue.record("still running"); return }
        guard case .start = machine.exited() else { Issue.record("pending first"); return }
        guard case .complete = machine.exited() else { Issue.record("then complete"); return }
    }
}
