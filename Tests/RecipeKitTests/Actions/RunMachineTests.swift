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
        #expect(next.first?.trigger.paths == ["/b", "/c"])
        guard case .none = machine.exited() else { Issue.record("nothing pending"); return }
    }

    @Test func restartStopsTheGroupAndStartsOnlyAfterItExited() {
        var machine = RunMachine<ChangeBatch>(policy: .restart)
        _ = machine.receive(batch("/a"))
        guard case .stop = machine.receive(batch("/b")) else { Issue.record("should stop the run"); return }
        guard case .none = machine.receive(batch("/c")) else { Issue.record("already stopping"); return }
        guard case .start(let next) = machine.exited() else { Issue.record("restart after exit"); return }
        #expect(next.first?.trigger.paths == ["/b", "/c"])
    }

    @Test func restartWhileTheRunIsStillSpawningStopsItAtOnce() {
        // The run's handle exists from the start step on: a stop needs no group id.
        var machine = RunMachine<ChangeBatch>(policy: .restart)
        _ = machine.receive(batch("/a"))
        guard case .stop = machine.receive(batch("/b")) else { Issue.record("stop at once"); return }
        guard case .start(let next) = machine.exited() else { Issue.record("restart after exit"); return }
        #expect(next.first?.trigger.paths == ["/b"])
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
        guard case .start(let firsts) = machine.receive(batch("/a")), let first = firsts.first else { Issue.record("should start"); return }
        guard case .stop = machine.receive(batch("/b")) else { Issue.record("should stop"); return }
        #expect(machine.exited(first, .signaled(15)).ending == .stopped(.restart))
        guard case .start(let seconds) = machine.next(), let second = seconds.first else { Issue.record("restart after exit"); return }
        guard case .stop = machine.timedOut(second) else { Issue.record("a timeout stops"); return }
        #expect(machine.exited(second, .signaled(15)).ending == .stopped(.timeout))
        guard case .none = machine.next() else { Issue.record("nothing pending"); return }
        guard case .start(let thirds) = machine.receive(batch("/c")), let third = thirds.first else { Issue.record("should start"); return }
        let stopping = machine.stopBegan(third)
        #expect(stopping && machine.isStopping(third))
        #expect(machine.exited(third, .signaled(15)).ending == .stopped(.elsewhere))
        guard case .start(let fourths) = machine.receive(batch("/d")), let fourth = fourths.first else { Issue.record("should start"); return }
        #expect(machine.exited(fourth, .exited(0)).ending == .own)
    }

    @Test func aStaleRunIsNotReportedAndDisposingStopsTheCurrentOne() {
        var machine = RunMachine<ChangeBatch>(policy: .queue)
        guard case .start(let runs) = machine.receive(batch("/a")), let run = runs.first else { Issue.record("should start"); return }
        guard case .none = machine.timedOut(CommandRun(batch("/x"), invocation: .init(words: ["true"]))) else {
            Issue.record("not this action's run"); return
        }
        let stopped = machine.dispose()
        #expect(stopped.count == 1 && stopped.first === run)
        #expect(machine.exited(run, .exited(0)).ending == .stale)
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
    /// A machine for a plain command (no placeholders), as most tests use.
    fileprivate init(policy: OnBusy) {
        self.init(policy: policy, template: CommandTemplate(plain: ["true"]))
    }

    /// The current set's runs are gone: they are reported, then what follows.
    fileprivate mutating func exited() -> Step {
        for run in current {
            if case .start(let more) = exited(run, .exited(0)).after { return .start(more) }
        }
        return next()
    }
}
