import ArgumentParser
import RecipeKit

/// `rwatch test [RECIPE] [-- OPTIONS…]`: compile a recipe with its tests
/// against RecipeTesting, and run them on virtual time.
struct TestRecipe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run a recipe's tests: NAME.tests.swift beside NAME.swift, on virtual time.",
        discussion: """
            The tests of rwatch.swift are in rwatch.tests.swift beside it; those of any recipe \
            file NAME.swift in NAME.tests.swift. They are Swift Testing tests that drive the \
            recipe with RecipeTest (import RecipeTesting): a virtual tree to edit, scripted \
            commands, virtual time. Nothing real is touched or run. They compile with the \
            recipe (cached like it) and report like swift test: exit 0 when all pass, 1 when \
            one fails. Options after -- go to the test runner (--filter NAME, --list-tests).

            Examples:
              rwatch test
              rwatch test chain
              rwatch test ./deploy.swift -- --filter restart
            """
    )

    @Argument(help: ArgumentHelp("A recipe file or a bundled recipe's name (default: the project's rwatch.swift).",
                                 valueName: "recipe"), completion: RecipeCompletion.kind)
    var recipe: String?

    @Argument(parsing: .postTerminator, help: ArgumentHelp("Options for the test runner (after --).", valueName: "options"))
    var options: [String] = []

    func run() throws {
        let file = try Self.recipeFile(recipe)
        let tests = RecipeCompiler.testsFile(of: file)
        guard FileSystem.isRegularFile(tests) else {
            throw RWatchError("no tests for \(Quoted.path(file)): write them in \(Quoted.path(tests)) (rwatch init writes an example)")
        }
        let compiler = try RecipeCompiler.standard()
        let binary = try compiler.testBinary(recipe: file, tests: tests)
        ProcessSupervisor.exit(Spawn.status([binary] + options))
    }

    /// The recipe file `given` names (a file, or a bundled recipe's name),
    /// or the project's `rwatch.swift` when none is given.
    static func recipeFile(_ given: String?) throws -> String {
        guard let given else {
            let here = FileSystem.currentDirectory()
            guard let file = ProjectRecipe.find(from: here) else {
                throw RWatchError("no \(ProjectRecipe.fileName) in \(Quoted.path(here)) or above: name a recipe, or write one with rwatch init")
            }
            return file
        }
        return try RecipeLibrary(directories: Installation.recipeDirectories()).resolve(given)
    }
}
