import ArgumentParser
import RecipeKit

/// `rwatch recipes`: the bundled recipes with their descriptions.
struct ListRecipes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recipes",
        abstract: "List the bundled recipes and what they do."
    )

    func run() throws {
        let entries = RecipeLibrary(directories: try Installation.current().recipeDirectories).entries()
        guard !entries.isEmpty else { throw RWatchError("no bundled recipes found") }
        let width = entries.map(\.name.count).max() ?? 0
        for entry in entries {
            let padding = String(repeating: " ", count: width - entry.name.count)
            Terminal.output("\(entry.name)\(padding)  \(entry.description)", prefix: "", toStandardError: false)
        }
    }
}
