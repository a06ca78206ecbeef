@testable import RecipeKit
import Testing

/// `RunMachine` with `{}` and `{+}`: the runs of one trigger as one set,
/// `jobs` at a time, the busy policy over the whole set; no processes.
@Suite struct RunSetTests {
    private func batch(_ paths: String...) -> ChangeBatch {
        ChangeBatch(paths.map { FileEvent(path: FilePath($0), kind: .modified) })
    }

    private func machine(_ policy: OnBusy, jobs: Int = 1, _ words: CommandWord...) throws -> RunMachine<ChangeBatch> {
        RunMachine(policy: policy, jobs: jobs, template: try CommandTemplate(words, base: "/"))
    }

    @Test func eachPathRunsOneAfterAnotherAndTheSetEndsWithItsLastRun() throws {
        var machine = try machine(.queue, "cat", "{}")
        guard case .start(let first) = machine.receive(batch("/a", "/b", "/c")) else { Issue.record("should start"); return }
        #expect(first.map { $0.invocation.words.map(\.text) } == [["cat", "a"]])
        guard case .start(let second) = machine.exited(first[0], .exited(0)).after else { Issue.record("b next"); return }
        #expect(second.map(\.invocation.paths) == [["/b"]])
        #expect(second[0].changes?.paths == ["/b"])
        guard case .start(let third) = machine.exited(second[0], .exited(2)).after else { Issue.record("c next"); return }
        guard case .finished(let outcome) = machine.exited(third[0], .exited(0)).after else { Issue.record("set over"); return }
        #expect(outcome.set.ended.count == 3)
        #expect(outcome.set.worst == .exited(2))
        #expect(outcome.stopped == nil)
        guard case .none = machine.next() else { Issue.record("nothing pending"); return }
    }

    @Test func jobsRunThatManyAtOnceAndStartTheNextAsOneEnds() throws {
        var machine = try machine(.queue, jobs: 2, "cat", "{}")
        guard case .start(let first) = machine.receive(batch("/a", "/b", "/c")) else { Issue.record("should start"); return }
        #expect(first.map(\.invocation.paths) == [["/a"], ["/b"]])
        guard case .start(let more) = machine.exited(first[1], .exited(0)).after else { Issue.record("c next"); return }
        #expect(more.map(\.invocation.paths) == [["/c"]])
        guard case .wait = machine.exited(first[0], .exited(0)).after else { Issue.record("c still runs"); return }
        guard case .finished = machine.exited(more[0], .exited(0)).after else { Issue.record("set over"); return }
    }

    @Test func aRestartStopsEveryRunOfTheSetAndStartsNoneOfThoseWaiting() throws {
        var machine = try machine(.restart, jobs: 2, "cat", "{}")
        guard case .start(let first) = machine.receive(batch("/a", "/b", "/c")) else { Issue.record("should start"); return }
        guard case .stop(let stopped) = machine.receive(batch("/d")) else { Issue.record("restart stops the set"); return }
        #expect(stopped.count == 2 && stopped[0] === first[0] && stopped[1] === first[1])
        let one = machine.exited(first[0], .signaled(15))
        guard case .wait = one.after else { Issue.record("b still stopping"); return }
        #expect(one.ending == .stopped(.restart))
        guard case .finished(let outcome) = machine.exited(first[1], .signaled(15)).after else { Issue.record("set over"); return }
        #expect(outcome.stopped == .restart)
        #expect(outcome.set.ended.count == 2)
        guard case .start(let next) = machine.next() else { Issue.record("the pending set starts"); return }
        #expect(next.map(\.invocation.paths) == [["/d"]])
    }

    @Test func signalReachesEveryRunningRun() throws {
        var machine = try machine(.signal(1), jobs: 3, "cat", "{}")
        guard case .start(let runs) = machine.receive(batch("/a", "/b")) else { Issue.record("should start"); return }
        guard case .signal(let signalled, 1) = machine.receive(batch("/c")) else { Issue.record("should signal"); return }
        #expect(signalled.count == runs.count)
    }

    @Test func aTimeoutStopsOneRunAndTheSetGoesOn() throws {
        var machine = try machine(.queue, "cat", "{}")
        guard case .start(let first) = machine.receive(batch("/a", "/b")) else { Issue.record("should start"); return }
        guard case .stop(let stopped) = machine.timedOut(first[0]) else { Issue.record("timeout stops it"); return }
        #expect(stopped.count == 1 && machine.isStopping(first[0]))
        let stopping = machine.stopBegan(first[0])
        #expect(stopping)
        let end = machine.exited(first[0], .signaled(15))
        #expect(end.ending == .stopped(.timeout))
        guard case .start(let next) = end.after else { Issue.record("b starts"); return }
        guard case .finished(let outcome) = machine.exited(next[0], .exited(0)).after else { Issue.record("set over"); return }
        #expect(outcome.stopped == nil && outcome.set.worst == .signaled(15))
    }

    @Test func aStopFromElsewhereEndsTheSet() throws {
        var machine = try machine(.queue, "cat", "{}")
        guard case .start(let first) = machine.receive(batch("/a", "/b")) else { Issue.record("should start"); return }
        let stopping = machine.stopBegan(first[0])
        #expect(stopping)
        guard case .finished(let outcome) = machine.exited(first[0], .signaled(2)).after else { Issue.record("b never starts"); return }
        #expect(outcome.stopped == .elsewhere)
    }

    @Test func aTriggerWithoutPathsRunsTheLastPathsAgainOrNothing() throws {
        var machine = try machine(.queue, "cat", "{}")
        guard case .nothingToRun = machine.receive(batch()) else { Issue.record("no file yet"); return }
        guard case .start(let first) = machine.receive(batch("/a")) else { Issue.record("should start"); return }
        _ = machine.exited(first[0], .exited(0))
        guard case .start(let again) = machine.receive(batch()) else { Issue.record("r runs /a again"); return }
        #expect(again.map(\.invocation.paths) == [["/a"]])
    }

    @Test func allPathsMakeOneRunWithEveryPath() throws {
        var machine = try machine(.queue, jobs: 4, "wc", "{+}")
        guard case .start(let runs) = machine.receive(batch("/a", "/b")) else { Issue.record("should start"); return }
        #expect(runs.map { $0.invocation.words.map(\.text) } == [["wc", "a", "b"]])
    }
}
