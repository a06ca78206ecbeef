import RecipeTesting
import Testing

/// `RecipeTest` itself: a recipe on virtual time, with a virtual tree and
/// scripted commands. (Each bundled recipe's own tests sit beside it in
/// `recipes/` and run through `rwatch test`.)
@Suite struct RecipeTestTests {
    static let build = Recipe("build", "swift build on every save") {
        FileWatcher.watch(["Sources"], options: .matching("**/*.swift"))
            .batched(.milliseconds(100), holdingNewFiles: .shared)
            .startingNow()
            .run(["swift", "build"], onBusy: .restart)
            .then(["swift", "test"])
    }

    @Test func theRecipeRunsAtStartThenOnceForTwoSavesThirtyMillisecondsApart() {
        let test = RecipeTest(Self.build, files: ["Sources/App/main.swift": "print(1)"],
                              commands: [.command(["swift", "build"], takes: .seconds(2)), .command(["swift", "test"], takes: .seconds(1))])
        test.save("Sources/App/main.swift", "print(2)", at: .seconds(10))
        test.save("Sources/App/main.swift", "print(3)", at: .seconds(10) + .milliseconds(30))
        test.advance(to: .seconds(20))
        #expect(test.started == [
            .run(["swift", "build"], at: .zero),
            .run(["swift", "test"], at: .seconds(2)),
            .run(["swift", "build"], at: .seconds(10) + .milliseconds(130)),
            .run(["swift", "test"], at: .seconds(12) + .milliseconds(130)),
        ])
        #expect(test.runs[2].paths == ["/project/Sources/App/main.swift"])
        #expect(test.finish() == 0)
    }

    @Test(arguments: EditorSave.allCases)
    func everyEditorsSaveIsOneRunForTheSavedFileOnly(_ editor: EditorSave) {
        let test = RecipeTest(Self.build, files: ["Sources/App/main.swift": "print(1)"])
        test.save("Sources/App/main.swift", "print(2)", as: editor, at: .seconds(1))
        test.advance(to: .seconds(5))
        #expect(test.started.map(\.words) == [["swift", "build"], ["swift", "test"], ["swift", "build"], ["swift", "test"]])
        #expect(test.runs.last?.paths == ["/project/Sources/App/main.swift"])
    }

    @Test func aSaveDuringABuildRestartsItAndAFailedBuildRunsNoTest() {
        let test = RecipeTest(Self.build, files: ["Sources/a.swift": ""],
                              commands: [.command(["swift", "build"], runs: [.exits(0, after: .seconds(3)), .exits(1, after: .seconds(3))])])
        test.save("Sources/a.swift", "x", at: .seconds(1))
        test.advance(to: .seconds(10))
        #expect(test.started == [.run(["swift", "build"], at: .zero), .run(["swift", "build"], at: .milliseconds(1_100))])
        #expect(test.runs[0].status == .signaled(15))
        #expect(test.runs[0].signals == [SentSignal(number: 15, at: .milliseconds(1_100))])
        #expect(test.runs[1].status == .exited(1))
        #expect(test.finish() == 1)
    }

    @Test func aRunEndsWhenTheChildItLeftIsGoneAndTheTestRunsOnlyThen() {
        let test = RecipeTest(Self.build, files: ["Sources/a.swift": ""],
                              commands: [.command(["swift", "build"], takes: .seconds(1), childOutlives: .seconds(2))])
        test.advance(to: .seconds(5))
        #expect(test.started == [.run(["swift", "build"], at: .zero), .run(["swift", "test"], at: .seconds(3))])
        #expect(test.runs[0].end == .seconds(3))
    }
}
