@testable import RecipeKit
import Testing

@Suite struct RecipeRunnerTests {
    private struct Broken: Error, CustomStringConvertible {
        var description: String { "broken on purpose" }
    }

    @Test func aRecipeThatCompletesExitsWithItsLastCommandsStatus() {
        let recipe = Recipe("two", "two pipelines") {
            Signal.just(ChangeBatch([])).run(["sh", "-c", "exit 4"], options: RunOptions(statusLines: false))
            Signal.from([1, 2, 3])
        }
        #expect(RecipeRunner.run(recipe) == 4)
    }

    @Test func aFailingPipelineExits2() {
        let recipe = Recipe("broken", "fails") {
            Signal<Int>.error(Broken())
        }
        #expect(RecipeRunner.run(recipe) == 2)
    }

    @Test func theBodyRunsOnlyWhenTheRecipeRuns() {
        let built = Locked(0)
        let recipe = Recipe("lazy", "counts") {
            Signal<Int>.deferred {
                built.withLock { $0 += 1 }
                return .empty()
            }
            if built.withLock({ $0 }) > 100 {
                Signal.just("never")
            } else {
                Signal.just("else branch")
            }
        }
        #expect(recipe.name == "lazy" && recipe.description == "counts")
        #expect(built.withLock { $0 } == 0)
        #expect(RecipeRunner.run(recipe) == 0)
        #expect(built.withLock { $0 } == 1)
    }
}
