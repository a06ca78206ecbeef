import RecipeTesting
import Testing

// rwatch test dev-server: the server is a scripted command that serves
// until stopped; nothing is started for real.

let sources = ["Sources/App/main.swift": "serve()"]

@Test func theServerStartsAtOnceAndAChangeRestartsIt() {
    let run = RecipeTest(recipe, files: sources, commands: [.command(["swift", "run"], runsUntilStopped: true)])
    run.save("Sources/App/main.swift", "serve(port: 8081)", at: .seconds(3))
    run.advance(to: .seconds(10))
    #expect(run.started == [.run(["swift", "run"], at: .zero), .run(["swift", "run"], at: .milliseconds(3_100))])
    #expect(run.runs[0].status == .signaled(15))
}

@Test func aServerThatIgnoresSIGTERMIsKilledAfterFiveSecondsAndOnlyThenReplaced() {
    let run = RecipeTest(recipe, arguments: ["./server"], files: sources,
                         commands: [.command(["./server"], runsUntilStopped: true, ignoresStop: .seconds(60))])
    run.save("Sources/App/main.swift", "v2", at: .seconds(1))
    run.advance(to: .seconds(20))
    #expect(run.started == [.run(["./server"], at: .zero), .run(["./server"], at: .milliseconds(6_100))])
    #expect(run.runs[0].signals == [SentSignal(number: 15, at: .milliseconds(1_100)), SentSignal(number: 9, at: .milliseconds(6_100))])
    #expect(run.statusLines.contains("stopping ./server: SIGTERM sent, SIGKILL in 4.50 s…"))
}

@Test func everyOutputLineIsPrefixed() {
    let run = RecipeTest(recipe, files: sources, commands: [.command(["swift", "run"], output: ["listening on :8080"], runsUntilStopped: true)])
    run.advance(to: .seconds(1))
    #expect(run.printed == ["[server] listening on :8080"])
}

@Test func watchNamesTheDirectoriesToWatch() {
    let run = RecipeTest(recipe, environment: ["WATCH": "web:api"], files: ["web/index.html": "", "api/main.go": "", "Sources/x.swift": ""],
                         commands: [.command(["swift", "run"], runsUntilStopped: true)])
    run.write("Sources/x.swift", "ignored here", at: .seconds(1))
    run.write("api/main.go", "package main", at: .seconds(2))
    run.advance(to: .seconds(5))
    #expect(run.started.map(\.at) == [.zero, .milliseconds(2_100)])
}
