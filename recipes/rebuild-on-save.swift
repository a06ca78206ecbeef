import RecipeKit

// rwatch run rebuild-on-save [PACKAGE-DIR]
//
// Builds the Swift package at once and on every save of a .swift file in
// its Sources or Tests; a newer save restarts a build still running (the
// whole process group stops first). `swift test` runs only when the build
// passed. SWIFT=/path/to/swift picks another toolchain driver.
let recipe = Recipe("rebuild-on-save", "swift build on every save (restarting a running build), then swift test if it passed") {
    let package = Recipe.arguments.first ?? "."
    let swift = Recipe.environment("SWIFT") ?? "swift"
    FileWatcher.watch(["\(package)/Sources", "\(package)/Tests"], options: .matching("**/*.swift"))
        .batched(.milliseconds(100), holdingNewFiles: .shared)
        .startingNow()
        .run([swift, "build", "--package-path", package], onBusy: .restart)
        .then([swift, "test", "--package-path", package])
}
