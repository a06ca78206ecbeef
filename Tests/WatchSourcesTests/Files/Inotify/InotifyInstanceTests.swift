#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import WatchSources

/// The inotify instance outlives the watches: a process that stops
/// watching and watches again keeps its one instance, so another process
/// cannot take the last of the user's instances (`max_user_instances`)
/// in between and leave the next watch polled, blind to a same-size
/// rewrite within one timestamp tick (an in-place save lost under load).
@Suite struct InotifyInstanceTests {
    @Test func theInstanceIsKeptWhenTheLastWatchEnds() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // Its own process: here, parallel tests keep the shared reader busy.
        let run = ProcessRecorder(ProcessSource.run([ProbePath.processProbe, "inotify-kept", dir.path]))
        #expect(run.waitUntilFinished())
        #expect(run.stdout == ["watching 1", "idle 1", "watching 1", "idle 1"])
    }
}
