import Glibc
import Testing
import TestSupport

/// git's own `fsmonitor-watchman.sample` (hook protocol v2) as
/// `core.fsmonitor`, with no wrapper: the hook runs `watchman`, which is
/// rwatch. `git status` through the hook must say what a plain `git
/// status` says after every kind of change a working copy sees.
@Suite struct WatchmanGitHookTests {
    typealias NewUser = WatchmanOnPathTests.NewUser
    static let sample = "/usr/share/git-core/templates/hooks/fsmonitor-watchman.sample"
    static let hasSample = access(sample, R_OK) == 0

    /// `git status --porcelain` through the hook, and without it.
    private func statuses(_ world: NewUser) -> (hook: String, plain: String) {
        let hook = world.run(["git", "status", "--porcelain", "--untracked-files=all"])
        #expect(hook.status == 0 && hook.errors.isEmpty, "the hook failed: \(hook.errors)")
        let plain = world.run(["git", "-c", "core.fsmonitor=", "status", "--porcelain", "--untracked-files=all"])
        return (hook.output, plain.output)
    }

    /// Runs `step` (a shell command in the working copy), then compares.
    private func after(_ step: String, _ world: NewUser, _ comment: Comment) {
        let done = world.run(["/bin/sh", "-c", step])
        #expect(done.status == 0, "\(comment): \(done.errors)")
        let (hook, plain) = statuses(world)
        #expect(hook == plain, "\(comment)")
    }

    @Test(.enabled(if: hasSample)) func gitStatusThroughTheHookMatchesPlainGitStatus() {
        let world = NewUser()
        defer { world.end() }
        let setUp = """
            git init -q -b main && printf 'a\\n' > a.txt && printf 'b\\n' > b.txt && printf 'd\\n' > d.txt && \
            mkdir -p src && printf 'x\\n' > src/x.c && git add -A && git commit -qm one && \
            cp \(Self.sample) .git/hooks/query-watchman && git config core.fsmonitor .git/hooks/query-watchman
            """
        #expect(world.run(["/bin/sh", "-c", setUp]).status == 0)
        // The first status starts the service (the hook runs `watchman clock`).
        let first = statuses(world)
        #expect(first.hook == first.plain)
        #expect(world.starts == 1, "\(Scratch.read(world.sock + ".log"))")
        after("printf 'edited\\n' >> a.txt", world, "an edit")
        after("mv b.txt renamed.txt", world, "a rename")
        after("rm d.txt", world, "a deletion")
        after("printf 'new\\n' > new.txt && mkdir -p src/deep && printf 'y\\n' > src/deep/y.c", world, "new files")
        after("git stash -q -u", world, "git stash")
        after("git stash pop -q", world, "git stash pop")
        after("git add -A && git commit -qm two", world, "a commit")
        after("printf 'again\\n' >> src/x.c", world, "an edit after the commit")
        #expect(world.starts == 1)
    }

    @Test(.enabled(if: hasSample)) func theHookAnswersExactlyTheChangedPath() {
        let world = NewUser()
        defer { world.end() }
        let setUp = "git init -q -b main && printf 'a\\n' > a.txt && printf 'b\\n' > b.txt && git add -A && git commit -qm one"
        #expect(world.run(["/bin/sh", "-c", setUp]).status == 0)
        let hook = ["perl", Self.sample, "2"]
        // No token: the hook asks for a clock and answers "everything" ("/").
        let first = world.run(hook + [""])
        let token = first.output.split(separator: "\0", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        #expect(token.hasPrefix("c:"), "\(first.output)\(first.errors)")
        world.scratch.write("root/a.txt", "changed\n")
        let second = world.run(hook + [token])
        let answer = second.output.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
        #expect(answer.first?.hasPrefix("c:") == true && answer.first != token, "\(second.output)\(second.errors)")
        #expect(Array(answer.dropFirst()) == ["a.txt"], "\(answer)")
    }
}
