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
        (["-x", "make"], "unknown option '-x'"),
        (["--poll-interval", "1s", "make"], "unknown option '--poll-interval'"),
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
        // The project recipe is findable from the help alone.
        #expect(result.stdout.contains("rwatch init && rwatch"))
        #expect(result.stdout.contains("nearest rwatch.swift"))
    }

    @Test func theCommandNeedsNoDoubleDash() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run(["-1", "sh", "-c", "echo \"$0 $1\"; exit 4", "-c", "--once"], in: scratch.path, scratch: scratch)
        #expect(result.status == 4)
        #expect(result.stdout == "-c --once\n")
    }

    @Test func versionPrintsTheVersionBothWays() {
        let scratch = Scratch()
        defer { scratch.remove() }
        for arguments in [["--version"], ["version"]] {
            let result = RWatch.run(arguments, in: scratch.path, scratch: scratch)
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("rwatch "))
            #expect(result.stdout.split(separator: "\n").count == 1)
        }
    }

    @Test func helpListsTheWatchOptionsBeforeTheSubcommands() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run(["--help"], in: scratch.path, scratch: scratch)
        #expect(result.status == 0)
        let options = try #require(result.stdout.firstRange(of: "--on-busy"))
        let subcommands = try #require(result.stdout.firstRange(of: "SUBCOMMANDS:"))
        #expect(options.lowerBound < subcommands.lowerBound)
        #expect(result.stdout.contains("tail"))
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
