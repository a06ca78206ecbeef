@testable import Signals
@testable import WatchSources
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

@Suite struct ProcessSupervisorTests {
    /// The helper built beside the test bundle (Sources/SupervisorProbe).
    private var probePath: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let directory = exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return directory + "/SupervisorProbe"
    }

    @Test func sigtermToTheSupervisorStopsEveryChildGroupThenExits143() {
        let probe = probePath
        #expect(access(probe, X_OK) == 0, "build SupervisorProbe: \(probe)")
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
}
