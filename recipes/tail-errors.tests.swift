import RecipeTesting
import Testing

// rwatch test tail-errors: lines appended to a virtual log on virtual time.

@Test func itPrintsTheLastTenErrorsThenNewOnesAndNotifiesAtMostOncePerTenSeconds() {
    let run = RecipeTest(recipe, arguments: ["app.log"])
    run.append(["INFO up", "ERROR disk full", "warn: slow", "DEBUG x"], to: "app.log", at: .seconds(1))
    run.append(["error again"], to: "app.log", at: .seconds(4))
    run.append(["ERROR third"], to: "app.log", at: .seconds(12))
    run.advance(to: .seconds(30))
    #expect(run.printed == ["app.log: ERROR disk full", "app.log: warn: slow", "app.log: error again", "app.log: ERROR third"])
    #expect(run.notifications.map(\.at) == [.seconds(1), .seconds(12)])
    #expect(run.notifications.first?.message == "errors in app.log")
}

@Test func notifyRunsTheGivenCommandInstead() {
    let run = RecipeTest(recipe, arguments: ["app.log"], environment: ["NOTIFY": "notify-send boom"])
    run.append(["ERROR boom"], to: "app.log", at: .seconds(1))
    run.advance(to: .seconds(5))
    #expect(run.started == [.run(["sh", "-c", "notify-send boom"], at: .seconds(1))])
    #expect(run.notifications.isEmpty)
}
