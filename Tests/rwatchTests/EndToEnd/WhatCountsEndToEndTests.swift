import Glibc
import Testing
import TestSupport

/// What counts as a change, through the real binary: with git, a tracked
/// file that an ignore rule matches is reported; without git, the rules
/// decide, and `-v` says once why; a path given to watch that a rule
/// ignores is watched.
@Suite struct WhatCountsEndToEndTests {
    /// A repository in `scratch/repo` with `*.json` ignored and
    /// `config/local.json` committed; `config/other.json` is not tracked.
    private func makeRepository(_ scratch: Scratch) {
        mkdir(scratch.file("repo"), 0o755)
        mkdir(scratch.file("repo/config"), 0o755)
        mkdir(scratch.file("repo/src"), 0o755)
        scratch.write("repo/.gitignore", "*.json\n")
        scratch.write("repo/config/local.json", "{}\n")
        scratch.write("repo/config/other.json", "{}\n")
        let git = ["git", "-C", scratch.file("repo")]
        #expect(Command.run(git + ["init", "-q"]).status == 0)
        #expect(Command.run(git + ["add", "-f", ".gitignore", "config/local.json"]).status == 0)
    }

    /// Starts `rwatch events ARGUMENTS` in `scratch` and returns once it
    /// reports a write in `repo/src`.
    private func start(_ scratch: Scratch, _ arguments: [String], environment: [String: String] = [:]) -> RWatch {
        let rwatch = RWatch(["events"] + arguments, in: scratch.path, environment: environment, scratch: scratch)
        _ = RunLog.writeUntil(scratch, "repo/src/ready") { rwatch.stdout.contains("repo/src/ready") }
        return rwatch
    }

    @Test func aTrackedFileThatARuleMatchesIsReported() {
        let scratch = Scratch()
        defer { scratch.remove() }
        makeRepository(scratch)
        let rwatch = start(scratch, ["repo"])
        defer { rwatch.interrupt() }
        scratch.write("repo/config/other.json", "{\"a\": 1}\n")
        scratch.write("repo/config/local.json", "{\"a\": 1}\n")
        scratch.write("repo/src/after", "x")
        #expect(eventually { rwatch.stdout.contains("closedWrite " + scratch.file("repo/src/after")) })
        #expect(rwatch.stdout.contains("closedWrite " + scratch.file("repo/config/local.json")), "\(rwatch.stdout)")
        #expect(!rwatch.stdout.contains("other.json"), "\(rwatch.stdout)")
    }

    @Test func withoutGitTheRulesDecideAndVerboseSaysSoOnce() {
        let scratch = Scratch()
        defer { scratch.remove() }
        makeRepository(scratch)
        mkdir(scratch.file("empty-path"), 0o755)
        let rwatch = start(scratch, ["-v", "repo/config", "repo/src"], environment: ["PATH": scratch.file("empty-path")])
        defer { rwatch.interrupt() }
        scratch.write("repo/config/local.json", "{\"a\": 1}\n")
        scratch.write("repo/src/after", "x")
        #expect(eventually { rwatch.stdout.contains("closedWrite " + scratch.file("repo/src/after")) })
        #expect(!rwatch.stdout.contains("local.json"), "\(rwatch.stdout)")
        let said = rwatch.stderr.split(separator: "\n").filter { $0.contains("git is not installed") }
        #expect(said.count == 1, "\(rwatch.stderr)")
    }

    /// `-w build` with `build/` in the `.gitignore`: watched, as named.
    @Test func anIgnoredDirectoryGivenToWatchIsWatched() {
        let scratch = Scratch()
        defer { scratch.remove() }
        makeRepository(scratch)
        scratch.write("repo/.gitignore", "*.json\nbuild/\n")
        mkdir(scratch.file("repo/build"), 0o755)
        let rwatch = start(scratch, ["repo/build", "repo/src"])
        defer { rwatch.interrupt() }
        scratch.write("repo/build/out.txt", "x")
        #expect(eventually { rwatch.stdout.contains("closedWrite " + scratch.file("repo/build/out.txt")) }, "\(rwatch.stdout)")
    }
}
