import RecipeTesting
import Testing

// rwatch test rebuild-on-save: the recipe on virtual time, with scripted
// `swift build` and `swift test` (nothing is built, nothing sleeps).

let build = ["swift", "build", "--package-path", "."]
let test = ["swift", "test", "--package-path", "."]
let package = ["Sources/App/main.swift": "print(1)", "Tests/AppTests/AppTests.swift": ""]

@Test func itBuildsAndTestsAtStartThenOnceForTwoSavesThirtyMillisecondsApart() {
    let run = RecipeTest(recipe, files: package, commands: [.command(["swift", "build"], takes: .seconds(2))])
    run.save("Sources/App/main.swift", "print(2)", at: .seconds(10))
    run.save("Sources/App/main.swift", "print(3)", as: .vim, at: .seconds(10) + .milliseconds(30))
    run.advance(to: .seconds(30))
    #expect(run.started == [
        .run(build, at: .zero), .run(test, at: .seconds(2)),
        .run(build, at: .milliseconds(10_130)), .run(test, at: .milliseconds(12_130)),
    ])
    #expect(run.runs[2].paths == ["/project/Sources/App/main.swift"])
}

@Test func aFailingBuildRunsNoTest() {
    let run = RecipeTest(recipe, files: package, commands: [.command(["swift", "build"], exits: 1)])
    run.advance(to: .seconds(5))
    #expect(run.started == [.run(build, at: .zero)])
    #expect(run.statusLines.last == "✗ swift build --package-path . exited 1 in 0 ms")
    #expect(run.finish() == 1)
}

@Test func aSaveDuringABuildStopsItAndBuildsAgain() {
    let run = RecipeTest(recipe, files: package, commands: [.command(["swift", "build"], takes: .seconds(5))])
    run.save("Sources/App/main.swift", "print(2)", at: .seconds(1))
    run.advance(to: .seconds(20))
    #expect(run.started.map(\.words) == [build, build, test])
    #expect(run.runs[0].status == .signaled(15))
    #expect(run.runs[1].start == .milliseconds(1_100))
}

@Test func onlySwiftFilesCount() {
    let run = RecipeTest(recipe, files: package)
    run.write("Sources/App/notes.txt", "later", at: .seconds(1))
    run.write("README.md", "# App", at: .seconds(2))
    run.advance(to: .seconds(10))
    #expect(run.started.map(\.words) == [build, test])
}
