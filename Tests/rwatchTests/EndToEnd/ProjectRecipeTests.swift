import Glibc
import Testing
import TestSupport

/// `rwatch` with no command: the project's `rwatch.swift`, found from any
/// directory below it, run from its own directory, reloaded when saved.
@Suite struct ProjectRecipeTests {
    /// A recipe named `name` whose one command writes `$$` to `name.pid`
    /// (in the directory it runs in), then waits for ever.
    private func recipe(_ name: String, extra: String = "") -> String {
        """
        import RecipeKit

        let recipe = Recipe("\(name)", "runs one command and waits") {
            Signal.just(ChangeBatch([])).run(["sh", "-c", "echo $$ > \(name).pid; exec sleep 300"])\(extra)
        }

        """
    }

    private func pid(_ scratch: Scratch, _ file: String) -> pid_t {
        pid_t(scratch.read(file).split(separator: "\n").first ?? "") ?? 0
    }

    @Test func theRecipeAboveTheWorkingDirectoryRunsFromItsOwnDirectory() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("Sources"), 0o755)
        mkdir(scratch.file("Sources/deep"), 0o755)
        scratch.write("rwatch.swift", """
            import RecipeKit

            let recipe = Recipe("where", "prints where it runs, then ends") {
                Signal.just(ChangeBatch([])).run(["sh", "-c", "pwd > where.txt"])
            }

            """)
        let result = RWatch.run([], in: scratch.file("Sources/deep"), scratch: scratch)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(scratch.read("where.txt").hasSuffix(scratch.path.split(separator: "/").last! + "\n"))
    }

    @Test func withNoRecipeTheUsageErrorSaysHowToStart() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let result = RWatch.run([], in: scratch.path, scratch: scratch)
        #expect(result.status == 2)
        #expect(result.stderr.contains("no command given and no rwatch.swift"))
        #expect(result.stderr.contains("rwatch init"))
        #expect(result.stderr.contains("COMMAND…"))
    }

    @Test func aBrokenEditKeepsTheOldPipelinesAndAGoodOneSwapsThem() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("rwatch.swift", recipe("first"))
        let rwatch = RWatch([], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually(.seconds(120)) { pid(scratch, "first.pid") > 0 })
        let first = pid(scratch, "first.pid")

        // Does not compile: reported at its line, the first recipe goes on.
        scratch.write("rwatch.swift", recipe("second", extra: "\n    .runn([\"true\"])"))
        #expect(eventually(.seconds(120)) { rwatch.stderr.contains("the running recipe keeps going") }, "\(rwatch.stderr)")
        #expect(rwatch.stderr.contains(scratch.file("rwatch.swift") + ":5:"), "\(rwatch.stderr)")
        #expect(isAlive(first))
        #expect(access(scratch.file("second.pid"), F_OK) != 0)

        // Compiles: the first command's group is stopped, the new one runs.
        scratch.write("rwatch.swift", recipe("third"))
        #expect(eventually(.seconds(120)) { pid(scratch, "third.pid") > 0 }, "\(rwatch.stderr)")
        #expect(!isAlive(first))
        #expect(rwatch.stderr.contains("reloaded"))
        let third = pid(scratch, "third.pid")
        #expect(isAlive(third))

        #expect(rwatch.interrupt() == 130)
        #expect(!isAlive(third))
    }
}

/// A stop signal while a save of the project recipe compiles: the compiler
/// is stopped, the running recipe and its command too, and rwatch says no
/// more than that it stopped (the interrupted compile is not an error).
@Suite struct ReloadStopTests {
    @Test func ctrlCDuringAReloadsCompileStopsEverythingQuietly() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let mark = "\(getpid())-reload-\(UInt32.random(in: 0...UInt32.max))"
        let text = { (name: String) in
            """
            import RecipeKit

            // \(mark)
            let recipe = Recipe("\(name)", "runs one command and waits") {
                Signal.just(ChangeBatch([])).run(["sh", "-c", "echo $$ > \(name).pid; exec sleep 300"])
            }

            """
        }
        // The first compile goes through; the second one hangs (as a slow
        // compile would) until it is stopped.
        scratch.write("swiftc", """
            #!/bin/sh
            case " $* " in *" -o "*)
                if [ -e '\(scratch.file("compiling"))' ]; then echo again >> '\(scratch.file("compiling"))'; exec sleep 300; fi
                echo first > '\(scratch.file("compiling"))' ;;
            esac
            exec "$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)" "$@"

            """)
        chmod(scratch.file("swiftc"), 0o755)
        scratch.write("rwatch.swift", text("first"))
        let rwatch = RWatch([], in: scratch.path, environment: [
            "SWIFTC": scratch.file("swiftc"), "XDG_CACHE_HOME": scratch.file("cache"), "RWATCH_TEST_MARK": mark,
        ], scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually(.seconds(120)) { !scratch.read("first.pid").isEmpty }, "\(rwatch.stderr)")
        let first = pid_t(scratch.read("first.pid").split(separator: "\n").first ?? "") ?? 0

        scratch.write("rwatch.swift", text("second"))
        #expect(eventually(.seconds(60)) { scratch.read("compiling").contains("again") }, "\(rwatch.stderr)")
        kill(rwatch.pid, SIGINT)
        #expect(rwatch.waitForExit(.seconds(30)) == 130, "\(rwatch.stderr)")
        #expect(!rwatch.stderr.contains("does not compile"), "\(rwatch.stderr)")
        #expect(!rwatch.stderr.contains("error"), "\(rwatch.stderr)")
        #expect(!isAlive(first))
        #expect(access(scratch.file("second.pid"), F_OK) != 0)
        #expect(marked(mark).isEmpty, "left behind: \(marked(mark))")
    }

    /// Pids of live processes whose environment holds `mark`.
    private func marked(_ mark: String) -> [pid_t] {
        guard let proc = opendir("/proc") else { return [] }
        defer { closedir(proc) }
        var found: [pid_t] = []
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = pid_t(name), isAlive(pid) else { continue }
            if Scratch.read("/proc/\(pid)/environ").contains("RWATCH_TEST_MARK=\(mark)\u{0}") { found.append(pid) }
        }
        return found
    }
}

/// `rwatch init`: a starter recipe for each kind of project, that compiles.
@Suite struct InitTests {
    @Test(arguments: [
        ("Package.swift", "Swift package", "swift build"),
        ("Cargo.toml", "Cargo project", "cargo build"),
        ("go.mod", "Go module", "go test"),
        ("package.json", "Node.js project", "npm"),
        ("pyproject.toml", "Python project", "pytest"),
        ("setup.py", "Python project", "pytest"),
        ("Makefile", "Makefile project", "make"),
        ("README", "no build file", "changed: "),
    ])
    func theStarterSuitsTheProjectAndCompiles(marker: String, kind: String, command: String) {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write(marker, "\n")
        // Without a marker the repository root is the project's.
        mkdir(scratch.file(".git"), 0o755)
        mkdir(scratch.file("Sources"), 0o755)
        mkdir(scratch.file("Sources/app"), 0o755)
        // From a subdirectory: the file goes to the project root.
        let made = RWatch.run(["init"], in: scratch.file("Sources/app"), scratch: scratch)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.contains(kind))
        let text = scratch.read("rwatch.swift")
        #expect(text.contains(command))
        #expect(text.contains("// "))
        let check = RWatch.run(["check", "rwatch.swift"], in: scratch.path, scratch: scratch)
        #expect(check.status == 0, "\(marker): \(check.stderr)")
        // Its tests, written beside it, pass on virtual time.
        #expect(scratch.read("rwatch.tests.swift").contains("RecipeTest(recipe"))
        let tests = RWatch.run(["test"], in: scratch.file("Sources/app"), scratch: scratch)
        #expect(tests.status == 0, "\(marker): \(tests.stdout)\(tests.stderr)")
        #expect(tests.stderr.contains("passed"))
    }

    @Test func anExistingRecipeIsNeverOverwritten() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("Package.swift", "\n")
        scratch.write("rwatch.swift", "mine\n")
        let result = RWatch.run(["init"], in: scratch.path, scratch: scratch)
        #expect(result.status == 2)
        #expect(result.stderr.contains("already exists"))
        #expect(scratch.read("rwatch.swift") == "mine\n")
    }
}
