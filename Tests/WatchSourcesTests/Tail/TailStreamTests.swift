@testable import Signals
@testable import WatchSources
import SystemPackage
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// Followed names that are not regular files: named FIFOs (read from
/// writer to writer) and anonymous pipes (read to their end, then done).
@Suite struct TailStreamTests {
    @Test(arguments: Backend.allCases) func aFIFOGivesEveryLineOfSuccessiveWritersOnceInOrder(_ backend: Backend) {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let fifo = directory + "/f"
        #expect(mkfifo(fifo, 0o600) == 0)
        // From the end: a start option means nothing to a stream, which is
        // read from the moment it is opened.
        let tail = TailRecorder(Tail.follow([fifo], from: .end, backend: backend.watchBackend))
        defer { tail.dispose() }
        // Two writers one right after the other (the second may come while
        // the follower is still at the first one's end), then a third once
        // everything has arrived.
        var expected: [String] = []
        for writer in 1...2 {
            let lines = (1...5).map { "writer \(writer) line \($0)" }
            #expect(writeAndClose(fifo, lines.map { $0 + "\n" }.joined()))
            expected += lines
        }
        #expect(eventually { tail.texts.count >= expected.count }, "\(tail.texts) \(String(describing: tail.error))")
        #expect(tail.texts == expected)
        #expect(writeAndClose(fifo, "writer 3\n"))
        expected.append("writer 3")
        #expect(eventually { tail.texts.count >= expected.count }, "\(tail.texts) \(String(describing: tail.error))")
        #expect(tail.texts == expected)
        #expect(!tail.completed)
    }

    @Test func aPartialLineFromAWriterThatClosesArrivesOnce() {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let fifo = directory + "/f"
        #expect(mkfifo(fifo, 0o600) == 0)
        let tail = TailRecorder(Tail.follow([fifo]))
        defer { tail.dispose() }
        #expect(writeAndClose(fifo, "whole\npart"))
        #expect(eventually { tail.texts.count >= 2 }, "\(tail.texts) \(String(describing: tail.error))")
        // The next writer's line is a line of its own, not the rest of "part".
        #expect(writeAndClose(fifo, "next\n"))
        #expect(eventually { tail.texts.count >= 3 }, "\(tail.texts)")
        #expect(tail.texts == ["whole", "part", "next"])
    }

    @Test(arguments: Backend.allCases) func aRegularFileAndAFIFOAreFollowedTogether(_ backend: Backend) {
        let directory = makeTemporaryDirectory()
        defer { removeTree(directory) }
        let log = directory + "/app.log"
        let fifo = directory + "/f"
        writeFile(log, "old\n")
        #expect(mkfifo(fifo, 0o600) == 0)
        let tail = TailRecorder(Tail.follow([log, fifo], from: .start, backend: backend.watchBackend))
        defer { tail.dispose() }
        #expect(eventually { tail.texts == ["old"] })
        #expect(writeAndClose(fifo, "from the fifo\n"))
        #expect(eventually { tail.texts.count >= 2 }, "\(tail.texts) \(String(describing: tail.error))")
        writeFile(log, "from the file\n", append: true)
        #expect(eventually { tail.texts.count >= 3 }, "\(tail.texts)")
        #expect(tail.all == [
            Tail.Line(path: FilePath(log), text: "old"),
            Tail.Line(path: FilePath(fifo), text: "from the fifo"),
            Tail.Line(path: FilePath(log), text: "from the file"),
        ])
    }

    /// `seq 100000` into a pipe followed as `/dev/fd/N`: every number once,
    /// in order, and at the pipe's end the signal completes.
    @Test func aPipeCarrying100000LinesGivesThemAllInOrderThenCompletes() {
        let ends = makePipe()
        let tail = TailRecorder(Tail.follow(["/dev/fd/\(ends.read)"]))
        defer { tail.dispose() }
        // The follower opened the pipe for itself: ours can go.
        close(ends.read)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends.write, 1)
        let words = ["seq", "1", "100000"]
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        #expect(withoutSpawns { posix_spawnp(&pid, argv[0]!, &actions, nil, argv, environ) } == 0)
        close(ends.write)
        let expected = (1...100_000).map(String.init)
        #expect(eventually(.seconds(60)) { tail.completed || tail.texts.count >= expected.count }, "\(tail.texts.count) lines, \(String(describing: tail.error))")
        // The first difference, not two arrays of 100,000 lines.
        let texts = tail.texts
        let mismatch = texts.indices.first { $0 >= expected.count || texts[$0] != expected[$0] }
        #expect(texts.count == expected.count && mismatch == nil,
                "\(texts.count) lines, first wrong at \(String(describing: mismatch)): \(mismatch.map { texts[$0] } ?? "")")
        #expect(eventually { tail.completed })
        tail.dispose()
        var status: Int32 = 0
        let reaped = eventually { waitpid(pid, &status, WNOHANG) == pid }
        if !reaped {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
    }

    /// Opens `fifo` for writing as soon as it has a reader (a non-blocking
    /// open fails until then, where a blocking one would hang the test),
    /// writes `text` whole and closes it.
    private func writeAndClose(_ fifo: String, _ text: String) -> Bool {
        var fd: Int32 = -1
        let opened = eventually {
            fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            return fd >= 0
        }
        guard opened else { return false }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return (try? FileDescriptor(rawValue: fd).writeAll(Array(text.utf8))) != nil
    }

    /// A pipe whose ends no child of a parallel test inherits (that would
    /// keep it from ever reaching its end).
    private func makePipe() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        withoutSpawns {
            precondition(pipe(&ends) == 0)
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        return (ends[0], ends[1])
    }
}
