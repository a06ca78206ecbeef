@testable import Signals
@testable import WatchSources
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

@Suite struct ProcessSupervisorTests {
    private var probePath: String { ProbePath.processProbe }

    @Test func sigtermToTheSupervisorStopsEveryChildGroupThenExits143() {
        let probe = probePath
        #expect(access(probe, X_OK) == 0, "build ProcessProbe: \(probe)")
        let run = ProcessRecorder(ProcessSource.run([probe]))
        #expect(eventually { run.stdout.last == "ready" })
        // Children get default signal handling back (SIG_IGN survives exec).
        #expect(run.stdout.first == "sigign 0000000000000000")
        let groups = run.stdout.compactMap { line in line.hasPrefix("group ") ? pid_t(line.dropFirst(6)) : nil }
        #expect(groups.count == 2)
        for pgid in groups {
            #expect(eventually { ProcessTable.entries().filter { $0.group == pgid && !$0.isDead }.count == 3 })
        }
        kill(run.pid ?? -1, SIGTERM)
        #expect(run.waitUntilFinished())
        #expect(run.exit == .exited(128 + SIGTERM))
        // The probe waited for its groups to be reaped before exiting; only
        // SIGKILLed orphans may still be on their way out.
        for pgid in groups {
            #expect(eventually { groupIsGone(pgid) })
        }
    }

    /// An exit asked for while a stop signal ends the process (rwatch's
    /// main thread refusing a compile because it is ending, say) waits for
    /// that end, so the status is the signal's, 143, never the 2 of the
    /// refusal. The order that lost before the fix is forced: the stop
    /// cleanup holds the end until the main thread is seen parked, or the
    /// process has already exited (with 2, before the fix).
    @Test func anExitAskedForWhileEndingKeepsTheSignalsStatus() throws {
        let scratch = TemporaryDirectory()
        defer { scratch.remove() }
        let fifo = scratch.file("release")
        #expect(mkfifo(fifo, 0o600) == 0)
        let run = ProcessRecorder(ProcessSource.run([probePath, "exit-while-ending", fifo]))
        #expect(eventually { run.stdout.last == "ready" })
        let pid = try #require(run.pid)
        kill(pid, SIGTERM)
        #expect(eventually { run.stdout.last == "stopping" })
        // The main thread (tid == pid) parked in pause(2) (syscall 34 on
        // x86_64), or the process gone.
        #expect(eventually { run.isFinished || mainThreadIsInPause(pid) })
        // The cleanup may not have opened the FIFO yet (the main thread can
        // reach pause first): a writer opens only once a reader is there.
        #expect(eventually {
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            guard writer >= 0 else { return run.isFinished }
            close(writer)
            return true
        })
        #expect(run.waitUntilFinished())
        #expect(run.exit == .exited(128 + SIGTERM))
    }

    /// An orphan that came to a subreaper (its parent exited, leaving it
    /// running in a group of its own) is adopted, stopped with its group
    /// and reaped: nothing of it is left, not even a zombie.
    @Test func orphansAreStoppedAndReapedByTheirAdopter() throws {
        let run = ProcessRecorder(ProcessSource.run([probePath, "orphans"]))
        defer { run.dispose() }
        #expect(eventually { run.stdout.last?.hasPrefix("swept ") == true }, "\(run.stdout) \(String(describing: run.error))")
        let orphan = try #require(pid_t(run.stdout.last?.dropFirst(6) ?? ""))
        #expect(orphan > 0)
        // Reaped by the probe, which is still running: no such process.
        #expect(kill(orphan, 0) != 0 && errno == ESRCH)
    }

    private func mainThreadIsInPause(_ pid: pid_t) -> Bool {
        let fd = open("/proc/\(pid)/task/\(pid)/syscall", O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return false }
        return buffer[..<count].split(separator: UInt8(ascii: " ")).first.map { String(decoding: $0, as: UTF8.self) } == "34"
    }
}
