import Glibc
import Testing
import TestSupport

/// Recipes that trap at run time, run for real: a short report, their
/// process groups stopped, status 2.
@Suite struct CrashingRecipeTests {
    /// A recipe named tail-errors that starts a command (which writes its
    /// pid, starts a background job in its group, and waits), then traps
    /// once the command has started.
    private func crashingRecipe(_ trap: String) -> String {
        """
        import Glibc
        import RecipeKit

        let recipe = Recipe("tail-errors", "traps") {
            Signal.just(ChangeBatch([])).run(["sh", "-c", "echo $$ > command.pid; sleep 300 & echo $! > job.pid; wait"])
            Timer.interval(.milliseconds(20)).filter { _ in access("job.pid", F_OK) == 0 }.take(1).map { _ -> Int in \(trap) }
        }

        """
    }

    @Test func aFatalErrorIsOneLineAndItsGroupsAreStopped() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("crash.swift", crashingRecipe(#"fatalError("boom")"#))
        let result = RWatch.run(["run", "crash.swift"], in: scratch.path, scratch: scratch)
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n").filter {
            !$0.hasPrefix("rwatch: compiling") && !$0.hasPrefix("rwatch: starting") && !$0.hasPrefix("rwatch: tail-errors running")
        }
        #expect(lines.count <= 3, "\(result.stderr)")
        #expect(lines.first == "rwatch: recipe tail-errors crashed: Fatal error: boom (crash.swift:6)", "\(result.stderr)")
        #expect(!result.stderr.contains("Thread 0"))
        for file in ["command.pid", "job.pid"] {
            let pid = pid_t(scratch.read(file).split(separator: "\n").first ?? "") ?? 0
            #expect(pid > 0 && !isAlive(pid), "\(file) \(pid) outlived rwatch")
        }
    }

    @Test func anIndexOutOfRangeNamesTheRecipesOwnLine() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("index.swift", crashingRecipe("[1, 2][Int(access(\"job.pid\", F_OK)) + 5]"))
        let result = RWatch.run(["run", "index.swift"], in: scratch.path, scratch: scratch)
        #expect(result.status == 2)
        #expect(result.stderr.contains("rwatch: recipe tail-errors crashed: Fatal error: Index out of range (index.swift:6)"), "\(result.stderr)")
        let pid = pid_t(scratch.read("command.pid").split(separator: "\n").first ?? "") ?? 0
        #expect(pid > 0 && !isAlive(pid))
    }

    @Test func verboseShowsTheBacktraceToo() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("crash.swift", crashingRecipe(#"fatalError("boom")"#))
        let result = RWatch.run(["run", "-v", "crash.swift"], in: scratch.path, scratch: scratch)
        #expect(result.status == 2)
        #expect(result.stderr.contains("Fatal error: boom"))
        #expect(result.stderr.contains(" crashed:"))
        #expect(result.stderr.contains(scratch.file("crash.swift") + ":6"), "\(result.stderr)")
        #expect(result.stderr.contains("rwatch: recipe tail-errors crashed: Fatal error: boom (crash.swift:6)"))
    }

    @Test func sigkillToRwatchStillStopsTheRecipesGroups() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("wait.swift", """
            import RecipeKit

            let recipe = Recipe("wait", "one command that waits") {
                Signal.just(ChangeBatch([])).run(["sh", "-c", "echo $$ > command.pid; sleep 300 & echo $! > job.pid; wait"])
            }

            """)
        let rwatch = RWatch(["run", "wait.swift"], in: scratch.path, scratch: scratch)
        // job.pid is written last: both pids are there once it is.
        #expect(eventually(.seconds(120)) { !scratch.read("job.pid").isEmpty })
        kill(rwatch.pid, SIGKILL)
        #expect(rwatch.waitForExit() == 128 + SIGKILL)
        // The recipe hears of it (SIGTERM from the kernel) and stops its group.
        for file in ["command.pid", "job.pid"] {
            let pid = pid_t(scratch.read(file).split(separator: "\n").first ?? "") ?? 0
            #expect(pid > 0 && eventually { !isAlive(pid) }, "\(file) \(pid) outlived rwatch")
        }
    }

    @Test func whatTheRecipeWritesToStandardErrorStillArrives() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("talk.swift", """
            import Glibc
            import RecipeKit

            let recipe = Recipe("talk", "writes to descriptor 2 itself") {
                Signal.just(Array("to stderr\\n".utf8)).map { bytes in bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) } }
            }

            """)
        let result = RWatch.run(["run", "talk.swift"], in: scratch.path, scratch: scratch)
        #expect(result.status == 0)
        #expect(result.stderr.contains("to stderr\n"))
    }
}
