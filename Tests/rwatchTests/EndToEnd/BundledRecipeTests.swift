import Glibc
import Testing
import TestSupport

/// Each bundled recipe, run through the real binary against a fixture.
@Suite struct BundledRecipeTests {
    private func count(_ text: String, _ word: String) -> Int {
        text.split(separator: "\n").filter { $0.contains(word) }.count
    }

    @Test func rebuildOnSaveBuildsAndTestsOnlyAfterAPassingBuild() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("pkg"), 0o700)
        mkdir(scratch.file("pkg/Sources"), 0o700)
        mkdir(scratch.file("pkg/Tests"), 0o700)
        scratch.write("pkg/Sources/a.swift", "let a = 1\n")
        // A stand-in for `swift`: logs its subcommand; the build fails while FAIL exists.
        scratch.write("fake-swift", "#!/bin/sh\necho \"$1\" >> \"$(dirname \"$0\")/log\"\n[ \"$1\" = build ] && [ -e \"$(dirname \"$0\")/FAIL\" ] && exit 1\nexit 0\n")
        chmod(scratch.file("fake-swift"), 0o755)
        let rwatch = RWatch(["run", "rebuild-on-save", "pkg"], in: scratch.path, environment: ["SWIFT": scratch.file("fake-swift")], scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually(.seconds(60)) { scratch.read("log") == "build\ntest\n" })
        scratch.write("FAIL", "")
        scratch.write("pkg/Sources/a.swift", "let a = 2\n")
        #expect(eventually { count(scratch.read("log"), "build") == 2 })
        #expect(eventually { rwatch.stderr.contains("exited 1") })
        unlink(scratch.file("FAIL"))
        scratch.write("pkg/Sources/a.swift", "let a = 3\n")
        #expect(eventually { count(scratch.read("log"), "test") == 2 })
        #expect(scratch.read("log") == "build\ntest\nbuild\nbuild\ntest\n")
    }

    @Test func chainStopsAtTheFirstFailureAndPrintsASummary() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("src"), 0o700)
        let environment = [
            "LINT": "echo lint >> ../steps",
            "BUILD": "echo build >> ../steps; [ ! -e ../FAIL ]",
            "TEST": "echo test >> ../steps",
        ]
        let rwatch = RWatch(["run", "chain", "."], in: scratch.file("src"), environment: environment, scratch: scratch)
        defer { rwatch.interrupt() }
        var attempt = 0
        #expect(eventually(.seconds(60)) {
            attempt += 1
            // Again only until a chain has started (the watch may not have
            // been armed yet): a write during a slow chain would start a
            // second one, whose steps interleave with the first's.
            if attempt % 200 == 1, scratch.read("steps").isEmpty { scratch.write("src/a.swift", "\(attempt)") }
            return rwatch.stdout.contains("chain: ")
        })
        #expect(scratch.read("steps").hasSuffix("lint\nbuild\ntest\n"))
        #expect(rwatch.stdout.contains("lint ✓"))
        #expect(rwatch.stdout.contains("test ✓"))
        scratch.write("FAIL", "")
        let before = scratch.read("steps")
        scratch.write("src/a.swift", "failing")
        #expect(eventually { rwatch.stdout.contains("build ✗") })
        #expect(scratch.read("steps").dropFirst(before.count).hasSuffix("lint\nbuild\n"))
    }

    @Test func devServerRestartsTheServerGroupWithPrefixedOutput() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("Sources"), 0o700)
        let server = ["--", "sh", "-c", "echo started $$; exec sleep 300"]
        let rwatch = RWatch(["run", "dev-server"] + server, in: scratch.path, scratch: scratch)
        #expect(eventually(.seconds(60)) { count(rwatch.stdout, "[server] started") == 1 })
        let first = pid_t(rwatch.stdout.split(separator: " ").last?.split(separator: "\n").first ?? "") ?? 0
        scratch.write("Sources/main.swift", "changed")
        #expect(eventually { count(rwatch.stdout, "[server] started") == 2 })
        #expect(first > 0 && !isAlive(first))
        #expect(rwatch.interrupt() == 130)
    }

    @Test func tailErrorsKeepsErrorLinesAndNotifies() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("app.log", "")
        let rwatch = RWatch(["run", "tail-errors", "app.log"], in: scratch.path, environment: ["NOTIFY": "echo notified >> notes"], scratch: scratch)
        defer { rwatch.interrupt() }
        let log = fopen(scratch.file("app.log"), "a")!
        defer { fclose(log) }
        var attempt = 0
        // Append until the follower has shown a line.
        #expect(eventually(.seconds(60)) {
            attempt += 1
            if attempt % 100 == 1 {
                fputs("info all fine\nERROR boom \(attempt)\nsome Warning here\n", log)
                fflush(log)
            }
            return rwatch.stdout.contains("ERROR boom") && rwatch.stdout.contains("Warning here")
        })
        #expect(!rwatch.stdout.contains("all fine"))
        #expect(eventually { scratch.read("notes").hasPrefix("notified") })
    }

    /// As tail -F shows the last 10 lines first, the recipe shows the last
    /// 10 lines that match, however far back; then says it runs, and what
    /// it follows.
    @Test func tailErrorsShowsTheLastTenErrorsFirstAndSaysItRuns() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let old = (1...15).map { "info \($0)\nERROR old \($0)\n" }.joined()
        scratch.write("app.log", old + String(repeating: "info later\n", count: 30))
        let rwatch = RWatch(["run", "tail-errors", "app.log"], in: scratch.path, environment: ["NOTIFY": "true"], scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually(.seconds(60)) { rwatch.stdout.contains("ERROR old 15") }, "\(rwatch.stderr)")
        let shown = rwatch.stdout.split(separator: "\n").map(String.init)
        #expect(shown == (6...15).map { "app.log: ERROR old \($0)" }, "\(shown)")
        #expect(eventually { rwatch.stderr.contains("rwatch: tail-errors running: following app.log\n") }, "\(rwatch.stderr)")
        scratch.append("app.log", "ERROR new\n")
        #expect(eventually { rwatch.stdout.hasSuffix("app.log: ERROR new\n") }, "\(rwatch.stdout)")
    }

    /// Recipe.paths: the log's name reaches the recipe as typed (not UTF-8,
    /// with an escape), and its lines are prefixed with it escaped.
    @Test func tailErrorsFollowsALogWhoseNameIsNotUTF8() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let name = Array("bad".utf8) + [0xFF, 0x1B] + Array(".log".utf8)
        let path = scratch.file(bytes: name)
        Scratch.write(bytes: path, "")
        let rwatch = RWatch(bytes: [Array("run".utf8), Array("tail-errors".utf8), name], in: scratch.path,
                            environment: ["NOTIFY": "true"], scratch: scratch)
        defer { rwatch.interrupt() }
        var attempt = 0
        #expect(eventually(.seconds(60)) {
            attempt += 1
            if attempt % 100 == 1 {
                let fd = (path + [0]).map { CChar(bitPattern: $0) }.withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_APPEND) }
                _ = Array("ERROR boom\n".utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
            }
            return rwatch.stdout.contains(#"bad\xff\e.log: ERROR boom"#)
        }, "\(rwatch.stdout.debugDescription) \(rwatch.stderr)")
        #expect(!rwatch.stdoutBytes.contains(0x1B))
    }
}
