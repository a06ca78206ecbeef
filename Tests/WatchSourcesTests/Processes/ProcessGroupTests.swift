import Dispatch
@testable import Signals
@testable import WatchSources
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

@Suite struct ProcessGroupTests {
    /// Members of `pgid` that are running (not zombies).
    private func liveMembers(_ pgid: pid_t) -> [pid_t] {
        ProcessTable.entries().filter { $0.group == pgid && !$0.isDead }.map(\.pid)
    }

    @Test func disposingKillsTheWholeGroupGrandchildrenIncluded() {
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", "sleep 100 & sleep 100 & echo ready; wait"]))
        #expect(eventually { run.stdout == ["ready"] })
        let pgid = run.pid ?? -1
        #expect(eventually { liveMembers(pgid).count == 3 })
        run.dispose()
        #expect(eventually { groupIsGone(pgid) })
        #expect(eventually { !isChildOfThisProcess(pgid) })
    }

    @Test func aGroupIgnoringTheStopSignalIsKilledAfterTheGracePeriod() {
        let options = ProcessOptions(stopTimeout: .milliseconds(200))
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", "trap '' TERM; sleep 100 & echo ready; wait"], options: options))
        #expect(eventually { run.stdout == ["ready"] })
        let pgid = run.pid ?? -1
        #expect(eventually { liveMembers(pgid).count == 2 })
        run.dispose()
        #expect(eventually { groupIsGone(pgid) })
        #expect(eventually { !isChildOfThisProcess(pgid) })
    }

    @Test func theChosenStopSignalIsSent() {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let marker = directory + "/got-int"
        let script = "trap 'echo int > \"$1\"; exit 0' INT; trap '' TERM; echo ready; while :; do sleep 1; done"
        let options = ProcessOptions(stopSignal: SIGINT, stopTimeout: .seconds(30))
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", script, "sh", marker], options: options))
        #expect(eventually { run.stdout == ["ready"] })
        let pgid = run.pid ?? -1
        run.dispose()
        #expect(eventually { groupIsGone(pgid) && !isChildOfThisProcess(pgid) })
        #expect(access(marker, F_OK) == 0)
    }

    /// `.sameGroup` (a recipe binary): the child stays in this process's
    /// group and gets the descriptors it is handed under the numbers asked.
    @Test func aSameGroupChildStaysInOurGroupWithTheDescriptorsHanded() throws {
        let pipe = try GNUFunctions.makePipe()
        defer { close(pipe.read) }
        var options = ProcessOptions()
        options.grouping = .sameGroup
        options.descriptors = [3: pipe.write]
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", "cut -d' ' -f5 /proc/$$/stat; echo handed >&3"], options: options))
        close(pipe.write)
        #expect(run.waitUntilFinished())
        #expect(run.exit == .exited(0))
        #expect(run.stdout == ["\(getpgrp())"])
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(pipe.read, &buffer, buffer.count)
        #expect(count > 0 && Array(buffer[..<max(count, 0)]) == Array("handed\n".utf8))
    }

    /// Stopping a child in our group signals it alone (this process lives
    /// on), and SIGKILL follows the stop timeout when it ignores SIGTERM.
    @Test func aSameGroupChildIsStoppedAloneAndKilledAfterItsStopTimeout() {
        var options = ProcessOptions(stopTimeout: .milliseconds(200))
        options.grouping = .sameGroup
        let handle = ProcessHandle()
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", "trap '' TERM; echo ready; exec sleep 300"], options: options, handle: handle))
        #expect(eventually { run.stdout == ["ready"] })
        handle.stop()
        #expect(run.waitUntilFinished())
        #expect(run.exit == .signaled(SIGKILL))
        #expect(handle.isStopped)
    }

    @Test func leftoversAreStoppedWhenTheLeaderExitsOnItsOwn() {
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", "sleep 100 & echo $!"]))
        #expect(run.waitUntilFinished())
        #expect(run.exit == .exited(0))
        let pgid = run.pid ?? -1
        #expect(run.stdout.count == 1)
        #expect(eventually { groupIsGone(pgid) })
        #expect(eventually { !isChildOfThisProcess(pgid) })
    }

    @Test func noZombieRemainsAfter500StartStopCycles() {
        var pids: [pid_t] = []
        for cycle in 1...500 {
            let run = ProcessRecorder(ProcessSource.run(["sleep", "100"]))
            guard let pid = run.pid else {
                Issue.record("cycle \(cycle) did not start: \(String(describing: run.error))")
                return
            }
            pids.append(pid)
            run.dispose()
            if cycle % 50 == 0 {
                // Bounded concurrency on a small machine: let this batch go.
                #expect(eventually { pids.suffix(50).allSatisfy { !isChildOfThisProcess($0) } })
            }
        }
        #expect(eventually { pids.allSatisfy { !isChildOfThisProcess($0) } })
        let zombies = ProcessTable.entries().filter { $0.parent == getpid() && $0.isDead && pids.contains($0.pid) }
        #expect(zombies.isEmpty)
    }

    @Test func aSlowConsumerMakesTheChildWaitInsteadOfGrowingMemory() {
        let gate = DispatchSemaphore(value: 0)
        let received = Locked(0)
        let lines = 1_000_000
        let subscription = ProcessSource.run(["seq", String(lines)]).subscribe(onNext: { event in
            guard case .stdout = event else { return }
            let count = received.withLock { count -> Int in
                count += 1
                return count
            }
            if count == 1 { gate.wait() }
        })
        defer { subscription.dispose() }
        // seq writes ~6.9 MB; with the consumer held, it must end up blocked
        // in write on the full pipe instead of finishing into a buffer.
        let seqPID = Locked<pid_t?>(nil)
        #expect(eventually {
            let pid = ProcessTable.entries().first { $0.parent == getpid() && !$0.isDead && Self.command($0.pid) == "seq" }?.pid
            seqPID.withLock { $0 = pid }
            guard let pid else { return false }
            return Self.waitChannel(pid).contains("pipe_write")
        })
        gate.signal()
        #expect(eventually { received.withLock { $0 } == lines })
    }

    private static func command(_ pid: pid_t) -> String {
        readSmallFile("/proc/\(pid)/comm").trimmingCharacters(in: "\n")
    }

    private static func waitChannel(_ pid: pid_t) -> String {
        readSmallFile("/proc/\(pid)/wchan")
    }
}

func readSmallFile(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(fd, &buffer, buffer.count)
    return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
}

extension String {
    func trimmingCharacters(in characters: Character) -> String {
        String(self.filter { $0 != characters })
    }

    /// A stop reaches what the run started outside its group (a setsid
    /// child here), and `exited` comes once that is gone too.
    @Test func aStopReachesWhatLeftTheGroup() {
        let handle = ProcessHandle()
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", "setsid sleep 1000 & echo $!; wait"], handle: handle))
        #expect(eventually { !run.stdout.isEmpty })
        guard let daemon = run.stdout.first.flatMap({ pid_t($0) }) else { Issue.record("no pid: \(run.stdout)"); return }
        // `$!` is known as soon as sh forks; the child calls setsid(2) a moment later.
        #expect(eventually { ProcessStat(daemon).map { $0.group == daemon } == true }, "it leads a group of its own")
        handle.stop()
        #expect(run.waitUntilFinished())
        #expect(ProcessStat(daemon).map { $0.state == "Z" } ?? true, "still running: \(daemon)")
    }
}
