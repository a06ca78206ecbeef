import Glibc
import SystemPackage
import Testing
import TestSupport

/// `rwatch tail FILE… --grep REGEX` through the real binary.
@Suite struct TailCommandTests {
    /// On a terminal, a log cannot drive it: an escape sequence written in
    /// a log (a title, a screen clear) is shown escaped; colours pass.
    @Test func aLogsControlSequencesAreShownNotObeyedOnATerminal() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("app.log", "title \u{1B}]0;pwned\u{7} clear \u{1B}[2J red \u{1B}[31mR\u{1B}[0m end\n")
        let session = try #require(TerminalSession())
        let rwatch = RWatch(["tail", "-n", "+1", "app.log"], in: scratch.path, session: session, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually { session.output.contains("end") }, "\(session.output)")
        #expect(session.output.contains("title \\e]0;pwned\\x07 clear \\e[2J red \u{1B}[31mR\u{1B}[0m end"), "\(session.output)")
        #expect(!session.output.contains("\u{1B}]"))
        #expect(!session.output.contains("\u{1B}[2J"))
    }

    @Test func keepsOnlyMatchingLinesCaseInsensitively() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("app.log", "INFO started\nERROR disk full\n")
        let rwatch = RWatch(["tail", "app.log", "-n", "+1", "--grep", "error|warn"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually { rwatch.stdout == "ERROR disk full\n" })
        scratch.append("app.log", "INFO fine\nwarning: slow\nnot an err0r\n")
        #expect(eventually { rwatch.stdout == "ERROR disk full\nwarning: slow\n" }, "\(rwatch.stdout)")
    }

    @Test func severalFilesArePrefixedWithTheirPath() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("a.log", "")
        let rwatch = RWatch(["tail", "a.log", "b.log", "--grep", "^GET", "--case-sensitive"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        // b.log appears later; a.log's lines go out once the follower is in place.
        #expect(eventually {
            scratch.append("a.log", "GET /a\nget /lower\n")
            return rwatch.stdout.hasPrefix("a.log: GET /a\n")
        })
        scratch.write("b.log", "POST /b\nGET /b\n")
        #expect(eventually { rwatch.stdout.hasSuffix("\nb.log: GET /b\n") })
        #expect(!rwatch.stdout.contains("lower") && !rwatch.stdout.contains("POST"))
    }

    /// `rwatch tail app.log | head -n 1`: once `head` has its line and
    /// leaves, rwatch must end too, though it has nothing more to write.
    @Test func endsWhenNobodyReadsItsOutputAnyMore() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("app.log", "first\n")
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        let arguments = [RWatch.binDirectory + "/rwatch", "tail", scratch.file("app.log"), "-n", "+1"]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        #expect(withoutSpawns { posix_spawn(&pid, argv[0]!, &actions, nil, argv, environ) } == 0)
        close(ends[1])
        // The first line arrives; then the reader goes away, as head does.
        var buffer = [UInt8](repeating: 0, count: 64)
        var received: [UInt8] = []
        #expect(eventually {
            let count = read(ends[0], &buffer, buffer.count)
            if count > 0 { received += buffer[0..<count] }
            return received.contains(0x0A)
        })
        #expect(String(decoding: received, as: UTF8.self) == "first\n")
        close(ends[0])
        var status: Int32 = 0
        let ended = eventually { waitpid(pid, &status, WNOHANG) == pid }
        if !ended {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        #expect(ended)
        #expect(ended && status & 0x7f == SIGPIPE)
    }

    @Test func printsTheLastLinesFirstLikeTail() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("app.log", (1...20).map { "line \($0)\n" }.joined())
        let rwatch = RWatch(["tail", "-n", "3", "-F", "app.log"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually { rwatch.stdout == "line 18\nline 19\nline 20\n" })
        scratch.append("app.log", "line 21\n")
        #expect(eventually { rwatch.stdout.hasSuffix("line 20\nline 21\n") })
        #expect(!rwatch.stdout.contains("line 17"))
    }

    @Test func reportsWaitingRotationAndTruncationOnStderr() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let rwatch = RWatch(["tail", "app.log"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually { rwatch.stderr.contains("rwatch: waiting for app.log to appear\n") })
        scratch.write("app.log", "first\n")
        #expect(eventually { rwatch.stdout == "first\n" })
        #expect(rwatch.stderr.contains("app.log appeared"))
        rename(scratch.file("app.log"), scratch.file("app.log.1"))
        scratch.write("app.log", "second\n")
        #expect(eventually { rwatch.stdout == "first\nsecond\n" })
        #expect(eventually { rwatch.stderr.contains("rwatch: app.log was rotated\n") })
        truncate(scratch.file("app.log"), 0)
        #expect(eventually { rwatch.stderr.contains("rwatch: app.log was truncated\n") })
        scratch.append("app.log", "third\n")
        #expect(eventually { rwatch.stdout == "first\nsecond\nthird\n" })
    }

    /// `producer | rwatch tail -`: the pipe's lines as they come, the
    /// unfinished last one at its end, and then rwatch is done (exit 0), as
    /// `tail -f` is with a pipe.
    @Test(arguments: ["-", "/dev/stdin"]) func readsAPipeOnStandardInputToItsEndThenExits(_ name: String) {
        let scratch = Scratch()
        defer { scratch.remove() }
        var ends: [Int32] = [-1, -1]
        withoutSpawns {
            precondition(pipe(&ends) == 0)
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        let rwatch = RWatch(["tail", name], in: scratch.path, stdin: ends[0], scratch: scratch)
        defer { if rwatch.exitStatus() == nil { rwatch.interrupt() } }
        close(ends[0])
        #expect(Self.write(ends[1], "first\nsecond\n"))
        #expect(eventually { rwatch.stdout == "first\nsecond\n" }, "\(rwatch.stdout) \(rwatch.stderr)")
        #expect(Self.write(ends[1], "unfinished"))
        close(ends[1])
        #expect(rwatch.waitForExit() == 0)
        #expect(rwatch.stdout == "first\nsecond\nunfinished\n")
        #expect(rwatch.stderr == "")
    }

    /// `mkfifo f; rwatch tail f`: what each writer writes, writer after
    /// writer, as `while :; do cat f; done` would print it.
    @Test func followsANamedFIFOFromWriterToWriter() {
        let scratch = Scratch()
        defer { scratch.remove() }
        #expect(mkfifo(scratch.file("f"), 0o600) == 0)
        let rwatch = RWatch(["tail", "-n", "+1", "f"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        for writer in 1...3 {
            // Opened without blocking: that fails until rwatch has the FIFO open.
            var fd: Int32 = -1
            #expect(eventually {
                fd = open(scratch.file("f"), O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                return fd >= 0
            })
            #expect(Self.write(fd, "l\(writer)a\nl\(writer)b\n"))
            close(fd)
            let expected = (1...writer).map { "l\($0)a\nl\($0)b\n" }.joined()
            #expect(eventually { rwatch.stdout == expected }, "\(rwatch.stdout) \(rwatch.stderr)")
        }
        #expect(rwatch.exitStatus() == nil)
    }

    /// Writes all of `text` to `fd`; false on an error.
    private static func write(_ fd: Int32, _ text: String) -> Bool {
        (try? FileDescriptor(rawValue: fd).writeAll(Array(text.utf8))) != nil
    }

    @Test func quietKeepsStderrEmpty() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let rwatch = RWatch(["tail", "-q", "app.log"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        // The file appearing is what proves the follower is running.
        #expect(eventually {
            if !FileSystemProbe.exists(scratch.file("app.log")) { scratch.write("app.log", "") }
            scratch.append("app.log", "x\n")
            return !rwatch.stdout.isEmpty
        })
        #expect(rwatch.stderr == "")
    }
}

enum FileSystemProbe {
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

}
