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
    /// A signal sent to a run reaches each of its processes once, in its
    /// group and outside it (a child that called setsid): a real-time
    /// signal queues, so a second copy would be counted. (A second SIGHUP
    /// is a second reload.) Each process counts once SIGUSR1, sent after
    /// it, has come. Without a cgroup, the one outside the group is
    /// followed only at a stop, so only the group is checked there.
    @Test func sendReachesEachProcessOnce() {
        let script = """
            import os, signal
            sig = signal.SIGRTMIN + 1
            signal.pthread_sigmask(signal.SIG_BLOCK, {sig, signal.SIGUSR1})
            def count(name):
                signal.sigwait({signal.SIGUSR1})
                n = 0
                while signal.sigtimedwait({sig}, 0) is not None:
                    n += 1
                os.write(1, f"{name} {n}\\n".encode())  # one write: the two share the pipe
            read, write = os.pipe()
            child = os.fork()
            if child == 0:
                os.setsid()
                os.write(write, b"x")
                count("outside")
                os._exit(0)
            os.read(read, 1)
            print("ready", flush=True)
            count("group")
            os.kill(child, signal.SIGUSR1)  # without a cgroup, the run's SIGUSR1 did not reach it
            os.waitpid(child, 0)
            """
        let handle = ProcessHandle()
        let run = ProcessRecorder(ProcessSource.run(["python3", "-c", script], handle: handle))
        #expect(eventually { run.stdout == ["ready"] })
        // SIGRTMIN + 1 (glibc keeps 32 and 33 for itself), queued before SIGUSR1 is sent.
        handle.send(35)
        handle.send(SIGUSR1)
        #expect(run.waitUntilFinished())
        #expect(run.exit == .exited(0), "\(run.events)")
        let counts = Set(run.stdout.dropFirst())
        #expect(counts.contains("group 1"), "\(run.events)")
        if ControlGroup.available {
            #expect(counts == ["group 1", "outside 1"], "\(run.events)")
        } else {
            #expect(counts.isSubset(of: ["group 1", "outside 0", "outside 1"]), "\(run.events)")
        }
    }
}
