import ArgumentParser
import Glibc
import RecipeKit
@testable import rwatch
import Testing
import TestSupport

/// Every flag of `rwatch`, `rwatch events` and `rwatch tail`, parsed as the
/// binary parses it, down to the options it builds.
@Suite struct FlagTests {
    func watch(_ arguments: [String]) throws -> Watch {
        try #require(try RootCommand.parseAsRoot(arguments + ["true"]) as? Watch)
    }

    func failure(_ arguments: [String]) -> String? {
        do {
            _ = try RootCommand.parseAsRoot(arguments)
            return nil
        } catch {
            return RootCommand.message(for: error)
        }
    }

    @Test func watchedPathsAreRepeatableAndDefaultToHere() throws {
        #expect(try watch([]).watch.isEmpty)
        #expect(try watch([]).paths.count == 1)
        #expect(try watch(["-w", "/tmp", "--watch", "/"]).paths == ["/tmp", "/"])
    }

    @Test func timingFlagsTakeDurations() throws {
        let parsed = try watch(["-d", "2s", "--max-wait", "5s", "--delay-run", "300ms", "--stop-timeout", "1m"])
        #expect(parsed.debounce == .seconds(2))
        #expect(parsed.maxWait == .seconds(5))
        #expect(parsed.delayRun == .milliseconds(300))
        #expect(parsed.running.stopTimeout == .seconds(60))
        let defaults = try watch([])
        #expect(defaults.debounce == .milliseconds(50))
        #expect(defaults.maxWait == .seconds(1))
        #expect(defaults.delayRun == .zero)
        #expect(failure(["--delay-run", "soon", "true"])?.contains("bad duration") == true)
    }

    @Test func busyPolicies() throws {
        #expect(try watch([]).policy == .queue)
        #expect(try watch(["-r"]).policy == .restart)
        #expect(try watch(["--on-busy", "ignore"]).policy == .ignore)
        #expect(try watch(["--on-busy", "signal", "-s", "HUP"]).policy == .signal(SIGHUP))
        #expect(try watch(["--restart", "--on-busy", "restart"]).policy == .restart)
        #expect(failure(["-r", "--on-busy", "queue", "true"])?.contains("contradict") == true)
        #expect(failure(["--on-busy", "later", "true"]) != nil)
    }

    @Test func watchexecSpellingsMeanTheSame() throws {
        #expect(try watch(["-o", "do-nothing"]).policy == .ignore)
        #expect(try watch(["--on-busy-update", "restart"]).policy == .restart)
        #expect(try watch(["--on-busy-update", "signal", "--stop-signal", "HUP"]).policy == .signal(SIGHUP))
        #expect(try watch(["--stop-signal", "INT"]).running.signal == SIGINT)
        #expect(try watch(["--colour", "never"]).output.color == .never)
    }

    @Test func whenToRunAndWhenToStop() throws {
        #expect(try watch(["-p"]).postpone)
        #expect(try watch(["--postpone"]).postpone)
        #expect(try watch(["-1"]).once)
        #expect(try watch(["--once"]).once)
        #expect(try watch(["--exit-on-error"]).exitOnError)
        #expect(try !watch([]).exitOnError)
    }

    @Test func runFlagsBecomeRunOptions() throws {
        let options = try watch(["--shell", "bash", "-s", "INT", "--stop-timeout", "2s", "--bell", "--print-events"])
            .running.runOptions(statusLines: true)
        #expect(options.shell == "bash")
        #expect(options.stopSignal == SIGINT)
        #expect(options.stopTimeout == .seconds(2))
        #expect(options.bell)
        #expect(options.printEvents)
        #expect(options.statusLines)
        let defaults = try watch([]).running.runOptions(statusLines: true)
        #expect(defaults.shell == nil && !defaults.bell && !defaults.printEvents && defaults.notify == nil)
    }

    @Test func timeoutTakesAPositiveDuration() throws {
        #expect(try watch(["--timeout", "90s"]).running.runOptions(statusLines: true).timeout == .seconds(90))
        #expect(try watch([]).running.runOptions(statusLines: true).timeout == nil)
        #expect(failure(["--timeout", "0", "true"]) == "--timeout must be longer than 0")
        #expect(failure(["--timeout", "long", "true"])?.contains("bad duration") == true)
    }

    @Test func clearCountsLikeEntr() throws {
        #expect(try watch([]).running.runOptions(statusLines: true).clear == .off)
        #expect(try watch(["-c"]).running.runOptions(statusLines: true).clear == .screen)
        #expect(try watch(["-cc"]).running.runOptions(statusLines: true).clear == .screenAndScrollback)
        #expect(try watch(["--clear", "--clear"]).running.runOptions(statusLines: true).clear == .screenAndScrollback)
    }

    @Test func notifyTakesAnOptionalMoment() throws {
        #expect(try watch(["-N"]).running.notify == .both)
        #expect(try watch(["--notify"]).running.notify == .both)
        #expect(try watch(["-N", "end"]).running.notify == .end)
        #expect(try watch(["--notify=start"]).running.notify == .start)
        // The command right after -N is the command, not -N's value.
        let parsed = try #require(try RootCommand.parseAsRoot(["-N", "make", "all"]) as? Watch)
        #expect(parsed.running.notify == .both)
        #expect(parsed.command == ["make", "all"])
    }

    @Test func environmentFromFlagsAndFilesWithFlagsWinning() throws {
        let scratch = TemporaryDirectory(prefix: "rwatch-flags")
        defer { scratch.remove() }
        scratch.write("one.env", "A=1\nB=from-file\n")
        scratch.write("two.env", "C=\"${A}+${A}\"\n")
        let options = try watch(["--env-file", scratch.file("one.env"), "--env-file", scratch.file("two.env"), "-E", "B=flag", "--env", "D=x=y"])
            .running.runOptions(statusLines: true)
        #expect(options.environment == ["A": "1", "B": "flag", "C": "1+1", "D": "x=y"])
        #expect(failure(["-E", "NOEQUALS", "true"])?.contains("expected KEY=VALUE") == true)
        #expect(failure(["-E", "1X=2", "true"])?.contains("expected KEY=VALUE") == true)
        #expect(failure(["--env-file", scratch.file("missing.env"), "true"])?.contains("cannot read") == true)
        scratch.write("bad.env", "A=1\nnot a line\n")
        #expect(failure(["--env-file", scratch.file("bad.env"), "true"])?.contains("bad.env:2: expected KEY=VALUE") == true)
    }

    @Test func workdirMustBeADirectoryAndBecomesAbsolute() throws {
        let options = try watch(["--workdir", "/tmp"]).running.runOptions(statusLines: true)
        #expect(options.workingDirectory == "/tmp")
        #expect(failure(["--workdir", "/no/such/dir", "true"]) == "--workdir: no such directory: /no/such/dir")
    }

    @Test func outputFlags() throws {
        let parsed = try watch(["-q", "--color", "never", "-v", "--log-file", "/tmp/x.log"])
        #expect(parsed.output.quiet)
        #expect(parsed.output.color == .never)
        #expect(parsed.output.verbose)
        #expect(parsed.output.logFile == "/tmp/x.log")
        let defaults = try watch([])
        #expect(!defaults.output.quiet && defaults.output.color == .auto && !defaults.output.verbose && defaults.output.logFile == nil)
        #expect(try watch(["--quiet", "--color=always", "--verbose"]).output.color == .always)
        #expect(failure(["--color", "sometimes", "true"]) != nil)
    }

    @Test func eventsTakesJSONAndTheSharedGroups() throws {
        let events = try #require(try RootCommand.parseAsRoot(["events", "--json", "-v", "--log-file", "/tmp/e.log", "/tmp"]) as? Events)
        #expect(events.json)
        #expect(events.output.verbose)
        #expect(events.paths == ["/tmp"])
        // No path given: `.` is watched, unless only -W paths are (`WatchFlags.changes`).
        #expect(try #require(try RootCommand.parseAsRoot(["events"]) as? Events).paths == [])
    }

    @Test func tailLineCounts() throws {
        func tail(_ arguments: [String]) throws -> TailFiles {
            try #require(try RootCommand.parseAsRoot(["tail"] + arguments + ["/tmp/app.log"]) as? TailFiles)
        }
        #expect(try tail([]).lines.start == .lastLines(10))
        #expect(try tail(["-n", "3"]).lines.start == .lastLines(3))
        #expect(try tail(["--lines", "0"]).lines.start == .lastLines(0))
        #expect(try tail(["-n", "+1"]).lines.start == .line(1))
        #expect(try tail(["-n", "+25"]).lines.start == .line(25))
        #expect(failure(["tail", "-n", "many", "/tmp/app.log"]) != nil)
        #expect(failure(["tail", "-n", "-3", "/tmp/app.log"]) != nil)
    }

    @Test func tailAcceptsFollowFlagsGrepAndQuiet() throws {
        let parsed = try #require(try RootCommand.parseAsRoot(["tail", "-f", "-F", "-q", "--grep", "err", "--case-sensitive", "/tmp/a.log", "/tmp/b.log"]) as? TailFiles)
        #expect(parsed.follow)
        #expect(parsed.output.quiet)
        #expect(parsed.grep == "err")
        #expect(parsed.caseSensitive)
        #expect(parsed.files == ["/tmp/a.log", "/tmp/b.log"])
        #expect(failure(["tail", "--from-start", "/tmp/a.log"])?.contains("--from-start") == true)
    }

    @Test func tailNoticesReadLikeTails() {
        #expect(TailFiles.describe(.waiting(path: "app.log")) == "waiting for app.log to appear")
        #expect(TailFiles.describe(.rotated(path: "app.log")) == "app.log was rotated")
        #expect(TailFiles.describe(.truncated(path: "my app.log")) == "'my app.log' was truncated")
        #expect(TailFiles.describe(.appeared(path: "app.log")) == "app.log appeared")
    }
}
