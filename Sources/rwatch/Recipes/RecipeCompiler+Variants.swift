import Glibc
import RecipeKit

extension RecipeCompiler {
    /// The generated entry point of a recipe's test binary: Swift Testing's
    /// own, as `swift test` runs it (its options, its report, exit 0 or 1).
    static let testMain = """
        import Glibc
        import Testing

        let status: CInt = await Testing.__swiftPMEntryPoint()
        exit(status)

        """

    /// Where the tests of the recipe file `recipe` live: `NAME.tests.swift`
    /// beside `NAME.swift` (`rwatch.tests.swift` for a project's `rwatch.swift`).
    static func testsFile(of recipe: String) -> String {
        (recipe.hasSuffix(".swift") ? String(recipe.dropLast(6)) : recipe) + ".tests.swift"
    }

    /// The test binary of `recipe` and its `tests` file, compiled together
    /// against RecipeKit and RecipeTesting (both in libRecipeKit.so; cached
    /// by both texts, as a recipe is by its own).
    func testBinary(recipe: String, tests: String) throws -> String {
        let module = installation.modules + "/RecipeTesting.swiftmodule"
        guard FileSystem.exists(module) else {
            throw RWatchError("recipe tests need RecipeTesting, and \(module) is missing; build it with make release (or make install)")
        }
        let recipeText = try FileSystem.read(recipe)
        let testsText = try FileSystem.read(tests)
        let material = ["tests", recipeText, tests, testsText, Self.identity(of: module)]
        let key = try cacheKey(material.joined(separator: "\u{0}"), path: recipe)
        let binary = cache.binary(for: key)
        if access(binary, X_OK) == 0 { return binary }
        let sources = [
            "main.swift": Self.testMain,
            "recipe.swift": Self.source(recipeText, file: recipe),
            "tests.swift": Self.source(testsText, file: tests),
        ]
        try compile(sources, as: key, naming: "\(Quoted.path(tests)) with \(Quoted.path(recipe))")
        return binary
    }

    /// The generated entry point of a replay binary (`rwatch replay`).
    static let replayMain = """
        import RecipeTesting

        RecipeReplay.main(recipe)

        """

    /// The replay binary of `recipe`: the recipe with `RecipeReplay` as its
    /// entry point, cached by its text.
    func replayBinary(recipe: String) throws -> String {
        let module = installation.modules + "/RecipeTesting.swiftmodule"
        guard FileSystem.exists(module) else {
            throw RWatchError("replay needs RecipeTesting, and \(module) is missing; build it with make release (or make install)")
        }
        let text = try FileSystem.read(recipe)
        let key = try cacheKey(["replay", text, Self.identity(of: module)].joined(separator: "\u{0}"), path: recipe)
        let binary = cache.binary(for: key)
        if access(binary, X_OK) == 0 { return binary }
        try compile(["main.swift": Self.replayMain, "recipe.swift": Self.source(text, file: recipe)], as: key,
                    naming: "recipe \(Quoted.path(recipe)) for replay")
        return binary
    }
}
