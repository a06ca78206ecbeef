import Glibc
import Testing
import TestSupport

/// `--stdin-quit`: the end of standard input ends rwatch with status 0,
/// the command stopped first, as a process manager expects.
@Suite struct StdinQuitTests {
    @Test func closingStandardInputStopsTheCommandAndExits0() {
        let scratch = Scratch()
        defer { scratch.remove() }
        // Close-on-exec before any other test's spawn can copy the write end.
        var fds: [Int32] = [0, 0]
        withoutSpawns {
            #expect(pipe(&fds) == 0)
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        let rwatch = RWatch(["--stdin-quit", "--", "sh", "-c", "echo $$ > pid; exec sleep 1000"], in: scratch.path, stdin: fds[0], scratch: scratch)
        close(fds[0])
        defer { rwatch.interrupt() }
        let command = { pid_t(scratch.read("pid").split(separator: "\n").first ?? "") }
        #expect(eventually { command() != nil })
        // What comes through the pipe is read and dropped; its end quits.
        _ = "some input\n".withCString { write(fds[1], $0, 11) }
        #expect(rwatch.exitStatus() == nil)
        close(fds[1])
        #expect(rwatch.waitForExit() == 0, "\(rwatch.stderr)")
        #expect(command().map(isAlive) == false)
    }

    @Test func onATerminalCtrlDQuits() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let session = try #require(TerminalSession())
        let rwatch = RWatch(["--stdin-quit", "-w", "watched", "--", "sh", "-c", "echo ran >> runs"], in: scratch.path, session: session, scratch: scratch)
        defer { if rwatch.exitStatus() == nil { kill(rwatch.pid, SIGKILL) } }
        #expect(eventually { session.output.contains("✓") }, "\(session.output)")
        session.type("\u{04}")
        #expect(rwatch.waitForExit(.seconds(20)) == 0, "\(session.output)")
    }
}
