import RecipeKit
import Testing

@Suite struct ExportsTests {
    @Test func recipeKitReExportsSignalsAndWatchSources() {
        let scheduler = TestScheduler()
        _ = Timer.after(.seconds(1), on: scheduler).map { _ in 1 }
        #expect(scheduler.pendingCount == 0)
    }
}
