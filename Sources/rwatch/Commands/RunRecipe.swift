import ArgumentParser
import Glibc
import RecipeKit

/// `rwatch run FILE|NAME [ARGS…]`: compile (or find cached) and run a recipe.
struct RunRecipe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Compile (cached) and run a recipe file or a bundled recipe by name.",
        discussion: """
            Arguments after the recipe reach it as Recipe.arguments. A recipe given as a \
            file is recompiled when you save it, and swapped in when it compiles. A recipe \
            that crashes is reported in one line and rwatch exits 2 (-v: with the backtrace).

            Examples:
              rwatch run rebuild-on-save
              rwatch run ./my-recipe.swift
              rwatch run tail-errors /var/log/app.log
            """
    )

    @Flag(name: .shortAndLong, help: "If the recipe crashes, show the runtime's whole backtrace too.")
    var verbose = false

    @Argument(help: ArgumentHelp("A recipe file (FILE.swift) or a bundled recipe's name.", valueName: "recipe"), completion: RecipeCompletion.kind)
    var recipe: String

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("Arguments for the recipe.", valueName: "args"))
    var arguments: [String] = []

    func run() throws {
        let compiler = try RecipeCompiler.standard()
        let file = try RecipeLibrary(directories: compiler.installation.recipeDirectories).resolve(recipe)
        // The recipe's arguments as typed: a path among them need not be
        // UTF-8. A recipe given by its path reloads when edited; a bundled one does not.
        let reloads = recipe.contains("/") || FileSystem.exists(recipe)
        let options = RecipeHost.Options(file: file, arguments: RawArguments.trailing(arguments), verbose: verbose, reloads: reloads)
        ProcessSupervisor.exit(try RecipeHost(options, compiler: compiler).run())
    }
}
