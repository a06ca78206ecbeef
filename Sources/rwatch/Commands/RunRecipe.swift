import ArgumentParser
import Glibc
import RecipeKit

/// `rwatch run FILE|NAME [ARGS…]`: compile (or find cached) and run a recipe.
struct RunRecipe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Compile (cached) and run a recipe file or a bundled recipe by name.",
        discussion: """
            Arguments after the recipe reach it as Recipe.arguments.

            Examples:
              rwatch run rebuild-on-save
              rwatch run ./my-recipe.swift
              rwatch run tail-errors /var/log/app.log
            """
    )

    @Argument(help: ArgumentHelp("A recipe file (FILE.swift) or a bundled recipe's name.", valueName: "recipe"), completion: .shellCommand("rwatch recipes --names"))
    var recipe: String

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("Arguments for the recipe.", valueName: "args"))
    var arguments: [String] = []

    func run() throws {
        let compiler = try RecipeCompiler.standard()
        let file = try RecipeLibrary(directories: compiler.installation.recipeDirectories).resolve(recipe)
        let binary = try compiler.binary(for: file)
        // The recipe's arguments as typed: a path among them need not be UTF-8.
        let code = ProcessSupervisor.exec(binary, [CommandWord(binary)] + RawArguments.trailing(arguments))
        throw RWatchError("cannot run the compiled recipe \(Quoted.path(binary)): \(String(cString: strerror(code)))")
    }
}
