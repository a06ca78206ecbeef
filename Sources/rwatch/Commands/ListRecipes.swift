import ArgumentParser
import RecipeKit

/// `rwatch recipes`: the bundled recipes with their descriptions.
struct ListRecipes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recipes",
        abstract: "List the bundled recipes and what they do."
    )

    @Flag(help: "Print only the names, one a line (for completion scripts).")
    var names = false

    func run() throws {
        // Names come from file names, descriptions from the files: both
        // are shown escaped (`Quoted`), one recipe a line.
        let entries = RecipeLibrary(directories: Installation.recipeDirectories()).entries()
            .map { (name: Quoted.escaped($0.name), description: Quoted.line($0.description)) }
        if names {
            for entry in entries { print(entry.name) }
            return
        }
        guard !entries.isEmpty else { throw RWatchError("no bundled recipes found") }
        let width = entries.map(\.name.count).max() ?? 0
        for entry in entries {
            let padding = String(repeating: " ", count: width - entry.name.count)
            Terminal.output("\(entry.name)\(padding)  \(entry.description)", prefix: "", toStandardError: false)
        }
    }
}
