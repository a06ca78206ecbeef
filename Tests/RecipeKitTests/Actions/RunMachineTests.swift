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
        #expect(next.trigger.paths == ["/b", "/c"])
        guard case .none = machine.exited() else { Issue.record("nothing pending"); return }
    }

    @Test func restartStopsTheGroupAndStartsOnlyAfterItExited() {
        var machine = RunMachine<ChangeBatch>(policy: .restart)
        _ = machine.receive(batch("/a"))
        guard case .stop = machine.receive(batch("/b")) else { Issue.record("should stop the run"); return }
        guard case .none = machine.receive(batch("/c")) else { Issue.record("already stopping"); return }
        guard case .start(let next) = machine.exited() else { Issue.record("restart after exit"); return }
        #expect(next.trigger.paths == ["/b", "/c"])
    }

    @Test func restartWhileTheRunIsStillSpawningStopsItAtOnce() {
        // The run's handle exists from the start step on: a stop needs no group id.
        var machine = RunMachine<ChangeBatch>(policy: .restart)
        _ = machine.receive(batch("/a"))
        guard case .stop = machine.receive(batch("/b")) else { Issue.record("stop at once"); return }
        guard case .start(let next) = machine.exited() else { Issue.record("restart after exit"); return }
        #expect(next.trigger.paths == ["/b"])
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
        guard case .signal(_, 1) = machine.receive(batch("/b")) else { Issue.record("should signal"); return }
        guard case .none = machine.exited() else { Issue.record("nothing pending"); return }
    }

    @Test func aRunTellsWhyRwatchEndedIt() {
        var machine = RunMachine<ChangeBatch>(policy: .restart)
        guard case .start(let first) = machine.receive(batch("/a")) else { Issue.record("should start"); return }
        guard case .stop = machine.receive(batch("/b")) else { Issue.record("should stop"); return }
        #expect(machine.exited(first) == .stopped(.restart))
        guard case .start(let second) = machine.next() else { Issue.record("restart after exit"); return }
        guard case .stop = machine.timedOut(second) else { Issue.record("a timeout stops"); return }
        #expect(machine.exited(second) == .stopped(.timeout))
        guard case .none = machine.next() else { Issue.record("nothing pending"); return }
        guard case .start(let third) = machine.receive(batch("/c")) else { Issue.record("should start"); return }
        let stopping = machine.stopBegan(third)
        #expect(stopping && machine.isStopping(third))
        #expect(machine.exited(third) == .stopped(.elsewhere))
        guard case .start(let fourth) = machine.receive(batch("/d")) else { Issue.record("should start"); return }
        #expect(machine.exited(fourth) == .own)
    }

    @Test func aStaleRunIsNotReportedAndDisposingStopsTheCurrentOne() {
        var machine = RunMachine<ChangeBatch>(policy: .queue)
        guard case .start(let run) = machine.receive(batch("/a")) else { Issue.record("should start"); return }
        guard case .none = machine.timedOut(CommandRun(batch("/x"))) else { Issue.record("not this action's run"); return }
        let stopped = machine.dispose()
        #expect(stopped === run)
        #expect(machine.exited(run) == .stale)
        guard case .none = machine.receive(batch("/b")), case .none = machine.next() else { Issue.record("disposed"); return }
    }

    @Test func pausedTriggersAreHeldMergedAndTakenOnResume() {
        var machine = RunMachine<ChangeBatch>(policy: .queue)
        machine.pause()
        guard case .none = machine.receive(batch("/a")), case .none = machine.receive(batch("/b")) else {
            Issue.record("paused triggers wait"); return
        }
        guard case .start = machine.runNow(batch("/now")) else { Issue.record("run now ignores the pause"); return }
        let held = machine.resume()
        #expect(held?.paths == ["/a", "/b"])
        let again = machine.resume()
        #expect(again == nil)
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

extension RunMachine {
    /// The current run's group is gone: it is reported, then what follows.
    fileprivate mutating func exited() -> Step {
        guard let run = current else { return .none }
        _ = exited(run)
        return next()
    }
}
