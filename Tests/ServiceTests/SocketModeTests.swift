import Dispatch
import Glibc
import Signals
import Testing
import TestSupport

/// Binding the service's socket never touches the process's umask: it is
/// the whole process's, and a thread spawning a child meanwhile (another
/// test's `rwatch`, a trigger) would hand it 0177 (its directories 0600,
/// its builds not executable).
@Suite struct SocketModeTests {
    /// The process's umask as the kernel reports it (reading it through
    /// `umask(2)` would mean setting it).
    private static func umaskNow() -> String? {
        TemporaryDirectory.read("/proc/self/status").split(separator: "\n")
            .first { $0.hasPrefix("Umask:") }.map { String($0.dropFirst(6).filter { !$0.isWhitespace }) }
    }

    @Test func serversStartingLeaveTheUmaskAlone() throws {
        guard let before = Self.umaskNow() else { return }
        let done = DispatchSemaphore(value: 0)
        let sampling = DispatchSemaphore(value: 0)
        let seen = Locked<Set<String>>([])
        let stop = Locked(false)
        // A queue of its own (the shared pool may be busy with the rest of
        // the suite), sampling before the first server starts.
        DispatchQueue(label: "rwatch-test-umask").async {
            var first = true
            while !stop.withLock({ $0 }) {
                if let now = Self.umaskNow() { _ = seen.withLock { $0.insert(now) } }
                if first { sampling.signal(); first = false }
            }
            done.signal()
        }
        sampling.wait()
        for _ in 0..<50 {
            let running = try RunningServer()
            var status = stat()
            #expect(lstat(running.sockname, &status) == 0 && status.st_mode & 0o777 == 0o600)
            running.stop()
        }
        stop.withLock { $0 = true }
        done.wait()
        #expect(seen.withLock { $0 } == [before])
    }
}
