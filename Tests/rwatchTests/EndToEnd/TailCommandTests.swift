import Glibc
import Testing
import TestSupport

/// `rwatch tail FILE… --grep REGEX` through the real binary.
@Suite struct TailCommandTests {
    @Test func keepsOnlyMatchingLinesCaseInsensitively() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("app.log", "INFO started\nERROR disk full\n")
        let rwatch = RWatch(["tail", "app.log", "--from-start", "--grep", "error|warn"], in: scratch.path, scratch: scratch)
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
        let arguments = [RWatch.binDirectory + "/rwatch", "tail", scratch.file("app.log"), "--from-start"]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        #expect(posix_spawn(&pid, argv[0]!, &actions, nil, argv, environ) == 0)
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
}
