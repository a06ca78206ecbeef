import Glibc
import Testing
import TestSupport

/// The flags of issue 13 through the real binary.
@Suite struct FlagEndToEndTests {
    @Test func envAndEnvFileReachTheCommand() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("app.env", "# settings\nexport PORT=8080\nNAME=\"from file\"\nMODE=file\n")
        let result = RWatch.run(["-1", "--env-file", "app.env", "-E", "MODE=flag", "-E", "EXTRA=a b",
                                 "sh", "-c", "echo \"$PORT|$NAME|$MODE|$EXTRA\""], in: scratch.path, scratch: scratch)
        #expect(result.status == 0)
        #expect(result.stdout == "8080|from file|flag|a b\n")
    }

    /// watchexec's `--shell=none`: no shell, the words run as given.
    @Test func shellNoneRunsTheWordsAsGiven() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run(["-1", "--shell=none", "echo", "a;b"], in: scratch.path, scratch: scratch)
        #expect(result.status == 0)
        #expect(result.stdout == "a;b\n")
    }

    /// A log file that is a FIFO would hang the open (no reader) and then
    /// every status line: refused, in one line.
    @Test func aLogFileThatIsAFIFOIsRefused() {
        let scratch = Scratch()
        defer { scratch.remove() }
        #expect(mkfifo(scratch.file("log"), 0o600) == 0)
        let result = RWatch.run(["-1", "--log-file", "log", "true"], in: scratch.path, scratch: scratch)
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot use log as the log file: not a regular file"), "\(result.stderr)")
    }

    @Test func workdirIsTheCommandsDirectory() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("web"), 0o700)
        let result = RWatch.run(["-1", "--workdir", "web", "pwd"], in: scratch.path, scratch: scratch)
        #expect(result.status == 0)
        #expect(result.stdout == scratch.file("web") + "\n")
    }

    @Test func exitOnErrorExitsWithTheFailingRunsStatus() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        // The first run passes and makes a change; the run that follows fails.
        let script = "if [ -e ../passed ]; then exit 4; fi; touch ../passed changed"
        let rwatch = RWatch(["--exit-on-error", "-d", "0", "sh", "-c", script], in: scratch.file("watched"), scratch: scratch)
        let status = rwatch.waitForExit()
        if status == nil { rwatch.interrupt() }
        #expect(status == 4)
        #expect(rwatch.stderr.contains("✓") && rwatch.stderr.contains("✗"))
    }

    @Test func quietDropsTheStatusLinesButNotErrors() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let quiet = RWatch.run(["-q", "-1", "sh", "-c", "echo out; exit 3"], in: scratch.path, scratch: scratch)
        #expect(quiet.status == 3)
        #expect(quiet.stdout == "out\n")
        #expect(quiet.stderr == "")
        let missing = RWatch.run(["-q", "-1", "no-such-program-rwatch"], in: scratch.path, scratch: scratch)
        #expect(missing.stderr.contains("command not found"))
    }

    @Test func colorNeverKeepsATerminalPlainAndAlwaysColoursAFile() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let terminal = try #require(TerminalSession())
        // What the terminal showed after the first `shownBefore` characters.
        let shown = { (shownBefore: Int) in String(terminal.output.dropFirst(shownBefore)) }
        // NO_COLOR unset: on a terminal, auto would colour.
        let auto = RWatch(["-1", "true"], in: scratch.path, unsetting: ["NO_COLOR"], terminal: terminal.slavePath, scratch: scratch)
        #expect(auto.waitForExit() == 0)
        #expect(eventually { shown(0).contains("exited 0") })
        #expect(shown(0).contains("\u{1B}["))
        let mark = terminal.output.count
        let never = RWatch(["-1", "--color", "never", "true"], in: scratch.path, unsetting: ["NO_COLOR"], terminal: terminal.slavePath, scratch: scratch)
        #expect(never.waitForExit() == 0)
        #expect(eventually { shown(mark).contains("exited 0") })
        #expect(!shown(mark).contains("\u{1B}["))
        // NO_COLOR is set by default here and a file is no terminal: always wins over both.
        let always = RWatch.run(["-1", "--color", "always", "true"], in: scratch.path, scratch: scratch)
        #expect(always.stderr.contains("\u{1B}[36m"))
    }

    @Test func verboseAndPrintEventsNameTheEventsBehindARun() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("watched"), 0o700)
        let rwatch = RWatch(["-v", "--print-events", "-p", "-d", "0", "-w", "watched", "sh", "-c", "echo ran >> runs"],
                            in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually { rwatch.stderr.contains("watching ") })
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { scratch.write("watched/some file.txt", "\(attempt)") }
            return !scratch.read("runs").isEmpty
        })
        #expect(eventually { rwatch.stderr.contains("'watched/some file.txt'") })
        #expect(rwatch.stderr.contains("why: "))
    }

    @Test func logFileGetsTimestampedStatusLines() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run(["-1", "-q", "--log-file", "rwatch.log", "true"], in: scratch.path, scratch: scratch)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let log = scratch.read("rwatch.log")
        #expect(log.contains("info    starting true"))
        #expect(log.contains("exited 0"))
        #expect(log.hasPrefix("20"))
    }

    @Test func delayRunStillRuns() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run(["-1", "--delay-run", "50ms", "sh", "-c", "echo late"], in: scratch.path, scratch: scratch)
        #expect(result.status == 0)
        #expect(result.stdout == "late\n")
    }

    @Test func aShellLookingCommandThatCannotStartGetsTheHint() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run(["-1", "echo hi | cat"], in: scratch.path, scratch: scratch)
        #expect(result.status == 127)
        #expect(result.stderr.contains("hint: use --shell sh to run it through a shell"))
        let plain = RWatch.run(["-1", "no-such-program-rwatch"], in: scratch.path, scratch: scratch)
        #expect(!plain.stderr.contains("hint"))
    }

    @Test func timeoutStopsARunAndSaysSo() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run(["-1", "--timeout", "300ms", "sh", "-c", "echo begun; exec sleep 300"], in: scratch.path, scratch: scratch)
        #expect(result.status == 128 + SIGTERM)
        #expect(result.stdout == "begun\n")
        #expect(result.stderr.contains("✗ sh -c 'echo begun; exec sleep 300' timed out after 300 ms: killed by SIGTERM"), "\(result.stderr)")
    }
}
