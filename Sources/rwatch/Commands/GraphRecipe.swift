import ArgumentParser
import Glibc
import RecipeKit

/// `rwatch graph [RECIPE] [ARGS…]`: a recipe's pipelines, sources →
/// operators → actions, as a tree, a Mermaid flowchart or a DOT graph.
///
/// The recipe is compiled (or found in the cache) as `rwatch run` would,
/// then its binary is started with `RecipeGraph.variable` set: it
/// evaluates its body, prints the picture its operators describe and
/// exits, without subscribing to anything (no watch, no command).
struct GraphRecipe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Print a recipe's pipelines: sources → operators → actions.",
        discussion: """
            Nothing runs: no path is watched and no command started. With no recipe, the \
            project's rwatch.swift (found as rwatch finds it). Arguments after the recipe \
            reach it as Recipe.arguments, as with rwatch run.

            Examples:
              rwatch graph chain
              rwatch graph --format mermaid ./my-recipe.swift
              rwatch graph --format dot | dot -Tsvg > pipelines.svg
            """
    )

    @Option(help: ArgumentHelp("tree (an indented tree), mermaid (a Mermaid flowchart) or dot (Graphviz).", valueName: "format"))
    var format: GraphFormat = .tree

    @Argument(help: ArgumentHelp("A recipe file (FILE.swift) or a bundled recipe's name; the project's rwatch.swift when none is given.", valueName: "recipe"), completion: RecipeCompletion.kind)
    var recipe: String?

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("Arguments for the recipe.", valueName: "args"))
    var arguments: [String] = []

    func run() throws {
        let compiler = try RecipeCompiler.standard()
        let file: String
        if let recipe {
            file = try RecipeLibrary(directories: compiler.installation.recipeDirectories).resolve(recipe)
        } else {
            let here = FileSystem.currentDirectory()
            guard let found = ProjectRecipe.find(from: here) else { throw ProjectRecipe.missing(from: here) }
            // The body sees the directory `rwatch` would run it from.
            let root = FileSystem.directory(of: found)
            guard chdir(root) == 0 else { throw RWatchError("cannot enter \(Quoted.path(root))") }
            file = found
        }
        let binary = try compiler.binary(for: file)
        let given = arguments.first == "--" ? Array(arguments.dropFirst()) : arguments
        let status = Spawn.status([binary] + given, environment: [RecipeGraph.variable: format.rawValue])
        if status != 0 {
            throw RWatchError("\(Quoted.path(file)): the recipe did not describe its pipelines (status \(status))")
        }
    }
}

extension GraphFormat: ExpressibleByArgument {}
