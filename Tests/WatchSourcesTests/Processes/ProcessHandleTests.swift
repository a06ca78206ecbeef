@testable import Signals
@testable import WatchSources
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// `ProcessHandle.stop()`: "stop, and tell me when it is gone".
@Suite struct ProcessHandleTests {
    /// Members of `pgid` that are running (not zombies).
    private func liveMembers(_ pgid: pid_t) -> [pid_t] {
        ProcessTable.entries().filter { $0.group == pgid && !$0.isDead }.map(\.pid)
    }

    @Test func stopStillDeliversExitedOnceTheWholeGroupIsGone() {
        let handle = ProcessHandle()
        // What was left of the group when `exited` arrived.
        let leftAtExit = Locked<[pid_t]?>(nil)
        let group = Locked<pid_t>(0)
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", "sleep 100 & sleep 100 & echo ready; wait"], handle: handle).on(next: { event in
            if case .started(let pid) = event { group.withLock { $0 = pid } }
            if case .exited = event {
                let pgid = group.withLock { $0 }
                leftAtExit.withLock { $0 = ProcessTable.entries().filter { $0.group == pgid && !$0.isDead }.map(\.pid) }
            }
        }))
        #expect(eventually { run.stdout == ["ready"] })
        let pgid = run.pid ?? -1
        #expect(eventually { liveMembers(pgid).count == 3 })
        #expect(!handle.isStopped)
        handle.stop()
        #expect(run.waitUntilFinished())
        #expect(run.isCompleted)
        #expect(run.exit == .signaled(SIGTERM))
        #expect(handle.isStopped)
        #expect(leftAtExit.withLock { $0 } == [])
        #expect(!isChildOfThisProcess(pgid))
        #expect(handle.processGroups.isEmpty)
    }

    @Test func exitedWaitsForWhatTheLeaderLeftBehind() {
        let handle = ProcessHandle()
        let leftAtExit = Locked<[pid_t]?>(nil)
        let group = Locked<pid_t>(0)
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", "sleep 100 & echo $!"], handle: handle).on(next: { event in
            if case .started(let pid) = event { group.withLock { $0 = pid } }
            if case .exited = event {
                let pgid = group.withLock { $0 }
                leftAtExit.withLock { $0 = ProcessTable.entries().filter { $0.group == pgid && !$0.isDead }.map(\.pid) }
            }
        }))
        #expect(run.waitUntilFinished())
        #expect(run.exit == .exited(0))
        #expect(leftAtExit.withLock { $0 } == [])
        #expect(!handle.isStopped)  // the leader ended on its own
    }

    @Test func aHandleStoppedBeforeTheSpawnStopsTheRunAsItStarts() {
        let handle = ProcessHandle()
        handle.stop()
        let run = ProcessRecorder(ProcessSource.run(["sleep", "100"], handle: handle))
        #expect(run.waitUntilFinished())
        #expect(run.pid != nil)
        #expect(run.exit == .signaled(SIGTERM))
    }

    @Test func killSkipsWhatIsLeftOfTheGracePeriod() {
        let handle = ProcessHandle()
        // The grace period outlasts `eventually`'s deadline: only kill() can end it in time.
        let options = ProcessOptions(stopTimeout: .seconds(3600))
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", "trap '' TERM; echo ready; while :; do sleep 1; done"], options: options, handle: handle))
        #expect(eventually { run.stdout == ["ready"] })
        handle.stop()
        handle.kill()
        #expect(run.waitUntilFinished())
        #expect(run.exit == .signaled(SIGKILL))
    }

    @Test func waitUntilGoneReturnsOnceTheGroupIsGone() {
        let handle = ProcessHandle()
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", "sleep 100 & echo ready; wait"], handle: handle))
        #expect(eventually { run.stdout == ["ready"] })
        let pgid = run.pid ?? -1
        handle.stop()
        handle.waitUntilGone()
        #expect(groupIsGone(pgid))
        #expect(!isChildOfThisProcess(pgid))
    }

    @Test func sendReachesTheWholeGroup() {
        let handle = ProcessHandle()
        let script = "trap 'echo hup; exit 0' HUP; echo ready; while :; do sleep 1; done"
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", script], handle: handle))
        #expect(eventually { run.stdout == ["ready"] })
        handle.send(SIGHUP)
        #expect(run.waitUntilFinished())
        #expect(run.stdout == ["ready", "hup"])
        #expect(run.exit == .exited(0))
        #expect(!handle.isStopped)
    }
}
