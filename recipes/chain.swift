import RecipeKit

// rwatch run chain [DIR]
//
// On every change under DIR (default .): lint, then build, then test, each
// only if the one before passed, then one summary line with every step's
// status and duration. Override a step with a shell command in LINT, BUILD
// or TEST (e.g. BUILD="make -j4").
let recipe = Recipe("chain", "on a change: lint → build → test, stopping at the first failure, then a one-line summary") {
    let dir = Recipe.arguments.first ?? "."
    let lint = Recipe.environment("LINT").map { ["sh", "-c", $0] } ?? ["swift", "format", "lint", "--recursive", "\(dir)/Sources"]
    let build = Recipe.environment("BUILD").map { ["sh", "-c", $0] } ?? ["swift", "build", "--package-path", dir]
    let test = Recipe.environment("TEST").map { ["sh", "-c", $0] } ?? ["swift", "test", "--package-path", dir]
    FileWatcher.watch([dir])
        .batched(.milliseconds(100), holdingNewFiles: .shared)
        .run(lint, options: RunOptions(name: "lint"))
        .then(build, options: RunOptions(name: "build"))
        .then(test, options: RunOptions(name: "test"))
        .map(\.summary)
        .print("chain: ", color: .cyan)
}
