import RecipeTesting
import Testing

/// What a `RecipeTest` hands the recipe besides files and commands: the
/// VCS settle over the virtual `.git`, keys, standard input, logs, the
/// environment, and an hour of editing on virtual time.
@Suite struct RecipeWorldTests {
    static let settled = Recipe("settled", "runs once per checkout") {
        FileWatcher.watch(["."]).settlingVCS(of: ["."]).batched(.milliseconds(50)).run(["make"])
    }

    @Test func aCheckoutOfManyFilesIsOneRunWithEveryPathOnceGitsLockIsGone() {
        let files = Dictionary(uniqueKeysWithValues: (0..<200).map { ("src/file\($0).c", "") })
        let test = RecipeTest(Self.settled, files: files.merging([".git/HEAD": "ref: main"]) { $1 })
        let changed = Dictionary(uniqueKeysWithValues: (0..<200).map { ("src/file\($0).c", "v2") })
        test.gitCheckout(changed, at: .seconds(1))
        test.advance(to: .seconds(5))
        #expect(test.runs.count == 1)
        #expect(test.runs.first?.paths.count == 200)
        // The lock went at 1 s + 201 ms; the batch closes 50 ms later.
        #expect(test.started.first?.at == .milliseconds(1_251))
    }

    /// A watch says where it is, down the stream (`settlingVCS(of:servedBy:)`):
    /// while a service serves it, the service holds git's operations and
    /// the settle lets a checkout through as it comes; once the watch is
    /// local again (its service went away), the settle watches the
    /// repository again and the next checkout is one run.
    @Test func theSettleHoldsAgainOnceTheWatchIsNoLongerServed() {
        let served = PublishSubject<Bool>()
        let recipe = Recipe("placed", "settled while the watch is local") {
            FileWatcher.batches(["."]).settlingVCS(of: ["."], servedBy: served.asSignal())
                .batched(.milliseconds(50), maxWait: .milliseconds(100)).run(["make"])
        }
        let files = Dictionary(uniqueKeysWithValues: (0..<200).map { ("src/file\($0).c", "") })
        let test = RecipeTest(recipe, files: files.merging([".git/HEAD": "ref: main"]) { $1 })
        test.advance(to: .seconds(1))
        served.sendNext(true)
        test.gitCheckout(Dictionary(uniqueKeysWithValues: (0..<200).map { ("src/file\($0).c", "v2") }), at: .seconds(2))
        test.advance(to: .seconds(5))
        // Served: nothing here holds it (the service would), so --max-wait cuts it.
        let whileServed = test.runs.count
        #expect(whileServed > 1)
        served.sendNext(false)
        test.gitCheckout(Dictionary(uniqueKeysWithValues: (0..<200).map { ("src/file\($0).c", "v3") }), at: .seconds(6))
        test.advance(to: .seconds(10))
        #expect(test.runs.count == whileServed + 1)
        #expect(test.runs.last?.paths.count == 200)
    }

    static let everything = Recipe("everything", "make on any change") {
        FileWatcher.watch(["."]).batched(.milliseconds(50)).run(["make"])
    }

    @Test func theTreesIgnoreFilesAndTheDefaultIgnoresApplyAndAnEditedGitignoreCountsAtOnce() {
        let test = RecipeTest(Self.everything, files: [".gitignore": "build/\n*.log\n", "src/a.c": ""])
        test.write("build/a.o", "obj", at: .seconds(1))
        test.write("run.log", "x", at: .seconds(2))
        test.write(".git/index", "x", at: .seconds(3))
        test.write(".build/debug/app.o", "x", at: .seconds(4))
        test.write("src/a.c", "int a;", at: .seconds(5))
        test.write(".gitignore", "build/\n*.log\nsrc/\n", at: .seconds(6))
        test.write("src/a.c", "int b;", at: .seconds(7))
        test.advance(to: .seconds(10))
        #expect(test.runs.map(\.paths) == [["/project/src/a.c"], ["/project/.gitignore"]])
    }

    static let keyed = Recipe("keyed", "make on a change or a key") {
        FileWatcher.batches(["src"]).batched(.milliseconds(50)).run(["make"])
    }

    @Test func rRunsNowPHoldsChangesUntilResumedAndQQuitsWithZero() {
        let test = RecipeTest(Self.keyed, files: ["src/a.c": ""], commands: [.command(["make"], exits: 3)])
        test.press(.runNow, at: .seconds(1))
        test.press(.pause, at: .seconds(2))
        test.save("src/a.c", "x", at: .seconds(3))
        test.save("src/a.c", "y", at: .seconds(4))
        test.press(.pause, at: .seconds(6))
        test.press(.quit, at: .seconds(8))
        test.advance(to: .seconds(10))
        #expect(test.started.map(\.at) == [.seconds(1), .seconds(6)])
        #expect(test.runs[1].paths == ["/project/src/a.c"])
        #expect(test.statusLines.contains("⏸ paused: changes are kept and run once on resume (p)"))
        #expect(test.exitStatus == 0)
    }

    static let echo = Recipe("echo", "prints what comes in") {
        Stdin.lines.map { $0.uppercased() }.print("> ")
    }

    @Test func standardInputLinesArriveAndItsEndEndsTheRecipe() {
        let test = RecipeTest(Self.echo)
        test.type("hello", at: .seconds(1))
        test.closeInput(at: .seconds(2))
        test.advance(to: .seconds(3))
        #expect(test.printed == ["> HELLO"])
        #expect(test.exitStatus == 0)
    }

    static let configured = Recipe("configured", "the command from the environment") {
        Timer.after(.seconds(1)).run([Recipe.environment("BUILD") ?? "make"] + Recipe.arguments)
    }

    @Test func theEnvironmentAndArgumentsAreTheTestsOwn() {
        let test = RecipeTest(Self.configured, arguments: ["-j4"], environment: ["BUILD": "ninja"])
        test.advance(to: .seconds(2))
        #expect(test.started == [.run(["ninja", "-j4"], at: .seconds(1))])
        #expect(test.exitStatus == 0)
    }

    @Test func anHourOfSavesEveryTenSecondsIsOneRunEachAndStaysOnVirtualTime() {
        let test = RecipeTest(Self.keyed, files: ["src/a.c": ""], commands: [.command(["make"], takes: .seconds(2))])
        for second in stride(from: 10, through: 3_600, by: 10) {
            test.save("src/a.c", "\(second)", as: EditorSave.allCases[second / 10 % 4], at: .seconds(second))
        }
        test.advance(to: .seconds(3_700))
        #expect(test.runs.count == 360)
        #expect(test.runs.allSatisfy { $0.status == .exited(0) && $0.paths == ["/project/src/a.c"] })
        #expect(test.now == .seconds(3_700))
    }

    static let watchingLogs = Recipe("logs", "a run per error line") {
        Tail.follow(["logs/app.log"], grep: "error").run(["alert"])
    }

    @Test func aFollowedLogsMatchingLinesStartRuns() {
        let test = RecipeTest(Self.watchingLogs)
        test.append(["ok", "error: one"], to: "logs/app.log", at: .seconds(1))
        test.append(["error: two"], to: "logs/app.log", at: .seconds(2))
        test.advance(to: .seconds(3))
        #expect(test.started == [.run(["alert"], at: .seconds(1)), .run(["alert"], at: .seconds(2))])
    }

    @Test func theSameTestGivesTheSameRecordEveryTime() {
        let records = (0..<50).map { _ in
            let test = RecipeTest(Self.keyed, files: ["src/a.c": ""], commands: [.command(["make"], takes: .milliseconds(70))])
            for step in 0..<20 { test.save("src/a.c", "\(step)", as: EditorSave.allCases[step % 4], at: .milliseconds(40 * step + 5)) }
            test.advance(to: .seconds(5))
            return test.runs.map(\.description)
        }
        #expect(Set(records.map { $0.joined(separator: "\n") }).count == 1)
        #expect(!(records.first ?? []).isEmpty)
    }
}
