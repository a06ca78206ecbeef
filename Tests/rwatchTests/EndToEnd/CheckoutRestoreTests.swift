import Glibc
import Testing
import TestSupport

/// `git checkout -- FILE`, restoring a modified tracked file, gives one run
/// every time (issue 36, item 5: a user saw none once in five tries). git
/// takes `index.lock`, unlinks the file, writes it anew (often the same
/// size, in the same second) and renames the lock over the index: the
/// settle (rwatch's own, or the service's `defer_vcs`) holds the file's
/// events until then and lets them through as one run.
/// `Benchmarks/vcs-checkout/checkout-runs.sh` runs the same rounds by the
/// hundred, under load and with other saves and flags.
@Suite struct CheckoutRestoreTests {
    private static let gitEnvironment = ["GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
                                         "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                                         "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"]

    private func git(_ arguments: [String], in directory: String) -> Command.Result {
        Command.run(["git", "-C", directory] + arguments, environment: Self.gitEnvironment)
    }

    /// The runs so far, one line each: the run's paths, space separated.
    private func runs(_ scratch: Scratch) -> [String] {
        scratch.read("runs").split(separator: "\n").map(String.init)
    }

    @Test(arguments: [false, true]) func restoringAModifiedFileGivesOneRunEveryTime(_ served: Bool) {
        let scratch = Scratch()
        defer { scratch.remove() }
        var environment = Self.gitEnvironment
        let sock = scratch.file("sock")
        let server = served ? RWatch(["serve", "--sockname", sock], in: scratch.path, scratch: scratch) : nil
        defer { _ = server?.interrupt() }
        if served {
            #expect(eventually { WatchmanSocket(sock) != nil })
            environment["WATCHMAN_SOCK"] = sock
        }
        let top = scratch.file("repo")
        mkdir(top, 0o755)
        #expect(git(["init", "-q"], in: top).status == 0)
        TemporaryDirectory.writeFile(top + "/file.py", "print(\"v0\")\n")
        #expect(git(["add", "file.py"], in: top).status == 0)
        #expect(git(["commit", "-qm", "one"], in: top).status == 0)
        let script = "printf '%s\\n' \"$RWATCH_PATHS\" | tr '\\n' ' ' >> \(scratch.file("runs")); echo >> \(scratch.file("runs"))"
        let rwatch = RWatch(["-p", "--shell", "sh", "--", script], in: top, environment: environment, scratch: scratch)
        defer { _ = rwatch.interrupt() }
        // The armed line: the watch is in place.
        let armed = eventually { rwatch.stderr.contains("watching") }
        guard armed else {
            Issue.record("rwatch did not start watching: \(rwatch.stderr)")
            return
        }
        #expect(rwatch.stderr.contains("through rwatch serve") == served, "\(rwatch.stderr)")
        let file = top + "/file.py"
        for round in 1...10 {
            // Same size as what git restores, one round in two.
            TemporaryDirectory.writeFile(file, round % 2 == 0 ? "print(\"e\(round % 10)\")\n" : "print(\"v0\")\nprint(\(round))\n")
            #expect(eventually { runs(scratch).count == 2 * round - 1 }, "round \(round), the edit: \(runs(scratch))")
            let checkout = git(["checkout", "--", "file.py"], in: top)
            #expect(checkout.status == 0, "\(checkout.errors)")
            #expect(eventually { runs(scratch).count == 2 * round }, "round \(round), the checkout: \(runs(scratch))")
        }
        TemporaryDirectory.writeFile(top + "/sentinel", "end\n")
        #expect(eventually { runs(scratch).last?.contains("sentinel") == true })
        #expect(runs(scratch) == Array(repeating: "\(file) ", count: 20) + ["\(top)/sentinel "], "\(runs(scratch))")
    }
}
