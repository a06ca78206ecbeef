import ArgumentParser
import RecipeKit

/// `rwatch check FILE|NAME`: compile a recipe without running it.
struct CheckRecipe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Compile a recipe only: the compiler's messages point at its file and line.",
        discussion: "Exit status 0 when it compiles, 2 when it does not."
    )

    @Argument(help: ArgumentHelp("A recipe file or a bundled recipe's name.", valueName: "recipe"), completion: RecipeCompletion.kind)
    var recipe: String

    func run() throws {
        let compiler = try RecipeCompiler.standard()
        let file = try RecipeLibrary(directories: compiler.installation.recipeDirectories).resolve(recipe)
        _ = try compiler.binary(for: file)
        Terminal.status("\(Quoted.path(file)) compiles", color: .green)
    }
}
