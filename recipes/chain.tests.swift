import RecipeTesting
import Testing

// rwatch test chain: lint → build → test on virtual time, each a scripted command.

let steps: [ScriptedCommand] = [
    .command(["swift", "format"], takes: .milliseconds(200)),
    .command(["swift", "build"], takes: .seconds(2)),
    .command(["swift", "test"], takes: .seconds(3)),
]

@Test func aChangeRunsLintBuildAndTestThenPrintsOneSummary() {
    let run = RecipeTest(recipe, files: ["Sources/a.swift": ""], commands: steps)
    run.save("Sources/a.swift", "let a = 1", at: .seconds(1))
    run.advance(to: .seconds(10))
    #expect(run.started == [
        .run(["swift", "format", "lint", "--recursive", "./Sources"], at: .milliseconds(1_100)),
        .run(["swift", "build", "--package-path", "."], at: .milliseconds(1_300)),
        .run(["swift", "test", "--package-path", "."], at: .milliseconds(3_300)),
    ])
    #expect(run.printed == ["chain: lint ✓ 200 ms → build ✓ 2.00 s → test ✓ 3.00 s"])
}

@Test func aFailingBuildStopsTheChainAndSaysSo() {
    var failing = steps
    failing[1] = .command(["swift", "build"], exits: 1, takes: .seconds(1))
    let run = RecipeTest(recipe, files: ["Sources/a.swift": ""], commands: failing)
    run.save("Sources/a.swift", "let a =", at: .seconds(1))
    run.advance(to: .seconds(10))
    #expect(run.started.map { $0.words[1] } == ["format", "build"])
    #expect(run.printed == ["chain: lint ✓ 200 ms → build ✗ 1.00 s"])
}

@Test func aStepIsReplacedByItsVariable() {
    let run = RecipeTest(recipe, environment: ["BUILD": "make -j4"], files: ["Sources/a.swift": ""], commands: steps)
    run.save("Sources/a.swift", "x", at: .seconds(1))
    run.advance(to: .seconds(10))
    #expect(run.started.map(\.words)[1] == ["sh", "-c", "make -j4"])
}
