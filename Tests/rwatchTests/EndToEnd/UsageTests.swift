import Glibc
import Testing
import TestSupport

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
        (["--debouce", "100ms", "make"], "unknown option '--debouce'; did you mean '--debounce'?"),
        (["events", "--jsno"], "unknown option '--jsno'; did you mean '--json'?"),
        (["serve", "--socknme", "sock"], "unknown option '--socknme'; did you mean '--sockname'?"),
        (["run", "no-such-recipe"], "no recipe named 'no-such-recipe'"),
        (["check", "/"], "/ is a directory, not a recipe file"),
        (["--poll=garbage", "true"], "--poll: bad duration 'garbage'"),
        (["--shell", "", "true"], "--shell needs a shell's name (or none)"),
        (["tail", ""], "'' is no file name"),
        (["tail", "--poll=-3s", "log"], "--poll: bad duration '-3s'"),
        (["--", "{}"], "{} needs a command to run the file with"),
        (["--shell", "sh", "{+} -x"], "{+} needs a command to run the file with"),
        (["--", "cp", "{}", "{+}"], "takes {} (one run per changed path) or {+}"),
        (["-j", "0", "--", "cat", "{}"], "-j/--jobs must be at least 1"),
        (["-j", "2", "--", "make"], "-j/--jobs runs per-file runs side by side: put {} (or {+}) in the command"),
        (["--build", "make 'all", "--", "./server"], "--build: unclosed ' quote"),
        (["--build", " ", "--", "./server"], "--build needs a command"),
    ])
    func badInputIsOneClearLineAndExitStatus2(arguments: [String], message: String) {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run(arguments, in: scratch.path, scratch: scratch)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    /// The parser turns a byte that is not UTF-8 into U+FFFD: the file
    /// named was then not found, and the message showed U+FFFD. A recipe's
    /// path reaches the compiler as text, so such a name is refused, shown
    /// as typed.
    @Test func aRecipeFileNameThatIsNotUTF8IsRefusedAsTyped() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let name: [UInt8] = Array("n".utf8) + [0xFF] + Array("u.swift".utf8)
        let path = Array(scratch.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        let fd = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) } }
        #expect(fd >= 0)
        close(fd)
        let process = RWatch(bytes: [Array("check".utf8), name], in: scratch.path, scratch: scratch)
        #expect(process.waitForExit() == 2)
        #expect(process.stderr.contains("a recipe's file name must be UTF-8: 'n\\xffu.swift'"), "\(process.stderr)")
        #expect(process.stderr.split(separator: "\n").count == 1)
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

    /// Every way to ask for help: the root's, the default command's and a subcommand's.
    static let helpRequests = [["--help"], ["help"], ["-r", "--help"], ["events", "--help"], ["help", "events"], ["serve", "-h"]]

    /// The lines of help that are wrapped (ArgumentParser never wraps a
    /// usage line); a terminal ends them with CR LF.
    private func wrapped(_ help: String) -> [Substring] {
        help.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("USAGE:") }
    }

    /// Into a file or a pipe, help is not wrapped at 80 columns: an
    /// option's text stays on one line for grep.
    @Test(arguments: helpRequests)
    func helpIntoAFileIsNotWrapped(arguments: [String]) {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run(arguments, in: scratch.path, scratch: scratch)
        #expect(result.status == 0)
        #expect(wrapped(result.stdout).contains { $0.count > 80 }, "\(result.stdout)")
        if arguments == ["--help"] {
            #expect(result.stdout.contains("With no subcommand, rwatch watches files and runs COMMAND on every change; the first word"))
        }
    }

    @Test(arguments: helpRequests)
    func helpIsWrappedToColumns(arguments: [String]) {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run(arguments, in: scratch.path, environment: ["COLUMNS": "60"], scratch: scratch)
        #expect(result.status == 0)
        #expect(wrapped(result.stdout).allSatisfy { $0.count <= 60 }, "\(result.stdout)")
    }

    @Test func helpOnATerminalIsWrappedToItsWidth() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let session = try #require(TerminalSession())
        session.resize(columns: 100, rows: 40)
        let rwatch = RWatch(["events", "--help"], in: scratch.path, session: session, scratch: scratch)
        defer { if rwatch.exitStatus() == nil { kill(rwatch.pid, SIGKILL) } }
        // Read while it writes: a full terminal would hold rwatch up.
        #expect(eventually { _ = session.output; return rwatch.exitStatus() != nil })
        #expect(rwatch.exitStatus() == 0)
        let help = wrapped(session.output)
        #expect(help.allSatisfy { $0.count <= 100 }, "\(help)")
        #expect(help.contains { $0.count > 80 }, "\(help)")
    }

    @Test func theCommandNeedsNoDoubleDash() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run(["-1", "sh", "-c", "echo \"$0 $1\"; exit 4", "-c", "--once"], in: scratch.path, scratch: scratch)
        #expect(result.status == 4)
        #expect(result.stdout == "-c --once\n")
    }

    @Test func anOptionFarFromAnyIsToldWithoutASuggestion() {
        let scratch = Scratch()
        defer { scratch.remove() }
        for (arguments, name) in [(["--xyzzy", "make"], "--xyzzy"), (["events", "--foo"], "--foo"), (["serve", "--named-pipe-pat", "p"], "--named-pipe-pat")] {
            let result = RWatch.run(arguments, in: scratch.path, scratch: scratch)
            #expect(result.status == 2)
            #expect(result.stderr == "rwatch: error: unknown option '\(name)'\n", "\(arguments)")
        }
    }

    /// After the command, a word is the command's, however near an option
    /// of rwatch's; after `--`, even the first word is.
    @Test func aMisspeltOptionAfterTheCommandIsPassedToIt() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let after = RWatch.run(["-1", "sh", "-c", "echo \"$0\"", "--debouce"], in: scratch.path, scratch: scratch)
        #expect(after.status == 0)
        #expect(after.stdout == "--debouce\n")
        let dashed = RWatch.run(["-1", "--", "--weird-program"], in: scratch.path, scratch: scratch)
        #expect(dashed.stderr.contains("command not found: --weird-program"), "\(dashed.stderr)")
        #expect(!dashed.stderr.contains("unknown option"))
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
