import Glibc
import Testing
import TestSupport

/// The line that says a watch is armed, through the real binary: a
/// command that waits for a change (`-p`, `{}`) no longer starts with
/// nothing on screen.
@Suite struct ArmedWatchTests {
    /// The armed line about `watched`, with its duration made a placeholder.
    private func armedLine(_ stderr: String) -> String? {
        stderr.split(separator: "\n").first { $0.hasPrefix("rwatch: watching watched (") }
            .map { String($0).replacing(#/, [0-9.]+ m?s\)/#, with: ", T)") }
    }

    private func tree(_ scratch: Scratch) {
        for directory in ["watched", "watched/a", "watched/a/b", "watched/c"] { mkdir(scratch.file(directory), 0o700) }
    }

    @Test func postponeSaysWhatIsWatchedOnceArmedAndAChangeRightAfterRuns() {
        let scratch = Scratch()
        defer { scratch.remove() }
        tree(scratch)
        let rwatch = RWatch(["-p", "-w", "watched", "-d", "0", "--", "sh", "-c", "echo run >> runs"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually { armedLine(rwatch.stderr) != nil }, "\(rwatch.stderr)")
        #expect(armedLine(rwatch.stderr) == "rwatch: watching watched (4 directories, T); waiting for a change", "\(rwatch.stderr)")
        // Armed means armed: one write, made after the line, is seen.
        scratch.write("watched/a/b/file", "1")
        #expect(eventually { scratch.read("runs") == "run\n" }, "\(rwatch.stderr)")
        // Not a terminal: no progress line, nothing drawn over.
        #expect(!rwatch.stderr.contains("\r") && !rwatch.stderr.contains("arming"))
    }

    /// In a repository too, where the VCS settle watches `.git` as well:
    /// it used to subscribe the tree's watch a second time once that was
    /// armed and the line out, and a change in between never ran (issue 36,
    /// item 5). Several starts, as the gap was a few milliseconds.
    @Test func aChangeRightAfterTheArmedLineRunsInAGitRepository() {
        let scratch = Scratch()
        defer { scratch.remove() }
        tree(scratch)
        #expect(Command.run(["git", "-C", scratch.path, "init", "-q"]).status == 0)
        for attempt in 1...5 {
            let runs = "runs\(attempt)"
            let rwatch = RWatch(["-p", "-w", "watched", "-d", "0", "--", "sh", "-c", "echo run >> \(runs)"], in: scratch.path, scratch: scratch)
            defer { rwatch.interrupt() }
            #expect(eventually { armedLine(rwatch.stderr) != nil }, "\(rwatch.stderr)")
            scratch.write("watched/a/b/file", "\(attempt)")
            #expect(eventually { scratch.read(runs) == "run\n" }, "attempt \(attempt): \(rwatch.stderr)")
        }
    }

    @Test func aPerFileCommandSaysItWaitsForAChange() {
        let scratch = Scratch()
        defer { scratch.remove() }
        tree(scratch)
        let rwatch = RWatch(["-w", "watched", "--", "echo", "{}"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually { armedLine(rwatch.stderr) != nil }, "\(rwatch.stderr)")
        #expect(armedLine(rwatch.stderr) == "rwatch: watching watched (4 directories, T); waiting for a change", "\(rwatch.stderr)")
    }

    @Test func quietSaysNothingWhenArmed() {
        let scratch = Scratch()
        defer { scratch.remove() }
        tree(scratch)
        let rwatch = RWatch(["-q", "-p", "-w", "watched", "-d", "0", "--", "sh", "-c", "echo run >> runs"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        var attempt = 0
        #expect(eventually {
            attempt += 1
            if attempt % 40 == 1 { scratch.write("watched/file", "\(attempt)") }
            return !scratch.read("runs").isEmpty
        })
        #expect(armedLine(rwatch.stderr) == nil, "\(rwatch.stderr)")
    }

    /// A command that runs at once is its own sign of life: no armed line
    /// unless `-v` asks for it.
    @Test func aCommandRunAtOnceSaysItOnlyUnderVerbose() {
        let scratch = Scratch()
        defer { scratch.remove() }
        tree(scratch)
        let plain = RWatch(["-w", "watched", "--", "sh", "-c", "echo run >> runs"], in: scratch.path, scratch: scratch)
        #expect(eventually { plain.stderr.contains("exited 0") }, "\(plain.stderr)")
        plain.interrupt()
        #expect(armedLine(plain.stderr) == nil, "\(plain.stderr)")
        let verbose = RWatch(["-v", "-w", "watched", "--", "true"], in: scratch.path, scratch: scratch)
        defer { verbose.interrupt() }
        #expect(eventually { armedLine(verbose.stderr) != nil }, "\(verbose.stderr)")
        #expect(armedLine(verbose.stderr) == "rwatch: watching watched (4 directories, T)", "\(verbose.stderr)")
    }
}
