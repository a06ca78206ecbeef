import Glibc
import Signals
import SystemPackage
import Testing
import TestSupport
@testable import WatchSources

/// One `PollJob`'s passes, run by the test on its own thread, one at a
/// time, so that a pass falls exactly where the test puts it.
@Suite struct PollJobTests {
    /// A job polling `root` whole, and the arrays it delivers.
    private func job(_ root: FilePath) -> (PollJob, Locked<[[FileEvent]]>) {
        let received = Locked<[[FileEvent]]>([])
        let sink = EventSink(observer: Observer { event in
            if case .next(let events) = event { received.withLock { $0.append(events) } }
        }, kinds: WatchOptions.allKinds)
        let options = WatchOptions(useVCSIgnore: false, useProjectIgnore: false, useGlobalIgnore: false, backend: .poll(interval: .milliseconds(25)))
        let job = PollJob(id: 1, rootIndex: 0, rootPath: root, interval: .milliseconds(25),
                          filter: PathFilter(root: root, options: options), subtrees: [PollMachine.Subtree(relative: [], path: root.bytes)],
                          gate: nil, sink: sink)
        return (job, received)
    }

    private func rewrite(_ path: String, truncating: Bool, _ text: String?) {
        let fd = open(path, O_WRONLY | (truncating ? O_TRUNC : 0))
        if let text { _ = text.withCString { Glibc.write(fd, $0, strlen($0)) } }
        close(fd)
    }

    /// vim's and gofmt's saves, a shell's `>`: the file is truncated, then
    /// written. A pass that falls between the two must not make that two
    /// changes (two runs of one save).
    @Test func aRewriteInPlaceCaughtBetweenItsTruncationAndItsWriteIsOneChange() {
        let dir = TempDir()
        defer { dir.remove() }
        let file = dir.at("app.c")
        Disk.write(file, "int x;\n")
        let (job, received) = job(FilePath(dir.path))
        job.pass()
        rewrite(file, truncating: true, nil)
        job.pass()
        rewrite(file, truncating: false, "int x = 1;\n")
        job.pass()
        job.pass()
        let arrays = received.withLock { $0 }
        #expect(arrays == [[FileEvent(path: FilePath(file), kind: .modified)]])
    }

    /// A file emptied for good is a change all the same, once the save
    /// window from the pass that found it empty has passed.
    @Test func aFileLeftEmptyIsAChangeAfterTheSaveWindow() {
        let dir = TempDir()
        defer { dir.remove() }
        let file = dir.at("log")
        Disk.write(file, "line\n")
        let (job, received) = job(FilePath(dir.path))
        job.pass()
        rewrite(file, truncating: true, nil)
        job.pass()
        #expect(received.withLock { $0 }.isEmpty)
        #expect(eventually {
            job.pass()
            return !received.withLock { $0 }.isEmpty
        })
        #expect(received.withLock { $0 } == [[FileEvent(path: FilePath(file), kind: .modified)]])
    }
}
