import Glibc
import Testing

@Suite struct UsageTests {
    @Test(arguments: [
        (["-d", "5x", "--", "true"], "bad duration"),
        (["-s", "SIGFOO", "--", "true"], "unknown signal"),
        (["-w", "/no/such/dir", "--", "true"], "no such file or directory: /no/such/dir"),
        (["tail", "log", "--grep", "(unclosed"], "bad regex"),
        (["-w", "/no/such\ndir", "--", "true"], "no such file or directory: '/no/such\\ndir'"),
        (["tail", "/no/$(touch x) dir\n/app.log"], "no such directory for '/no/$(touch x) dir\\n/app.log'"),
        (["events", "/no/such\tdir"], "no such file or directory: '/no/such\\tdir'"),
        ([], "no command given"),
        (["run", "no-such-recipe"], "no recipe named 'no-such-recipe'"),
    ])
    func badInputIsOneClearLineAndExitStatus2(arguments: [String], message: String) {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run(arguments, in: scratch.path, scratch: scratch)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func helpShowsExamplesAndExits0() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run(["--help"], in: scratch.path, scratch: scratch)
        #expect(result.status == 0)
        #expect(result.stdout.contains("Examples:"))
        #expect(result.stdout.contains("rwatch run rebuild-on-save"))
    }

    @Test func onceExitsWithTheCommandsStatus() {
        let scratch = Scratch()
        defer { scratch.remove() }
        #expect(RWatch.run(["-1", "--", "sh", "-c", "exit 3"], in: scratch.path, scratch: scratch).status == 3)
        #expect(RWatch.run(["--once", "--", "true"], in: scratch.path, scratch: scratch).status == 0)
    }

    @Test func onceReports128PlusTheSignalThatKilledTheCommand() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run(["-1", "--", "sh", "-c", "kill -USR1 $$"], in: scratch.path, scratch: scratch)
        #expect(result.status == 128 + SIGUSR1)
        #expect(result.stderr.contains("killed by SIGUSR1"))
    }
}
