import Glibc
import WatchSources

/// Where the RecipeKit module and library that recipes compile against
/// live: next to the rwatch binary in a build directory
/// (`<bindir>/Modules`, `<bindir>/libRecipeKit.so`) or in an install prefix
/// (`<prefix>/lib/rwatch/Modules`, `<prefix>/lib/rwatch/libRecipeKit.so`).
struct Installation {
    /// Directory holding `RecipeKit.swiftmodule` and the modules it re-exports.
    var modules: String
    /// Directory holding `libRecipeKit.so` (also the recipe binary's rpath).
    var library: String
    /// The bundled recipes' directories, in lookup order.
    var recipeDirectories: [String]
    /// Module maps of the C modules RecipeKit's modules depend on
    /// (CGlibcShims and swift-system's CSystem): a Swift client of a
    /// module built without library evolution loads even its internal
    /// imports.
    var moduleMaps: [String] = []
    /// True for a build directory's rwatch, false for an installed one.
    var isBuildTree = false

    /// The bundled recipes' directories of the running rwatch, in lookup
    /// order: listing them needs no compiler and no RecipeKit library.
    static func recipeDirectories() -> [String] {
        let bin = FileSystem.directory(of: FileSystem.executable())
        var recipes: [String] = []
        if let path = getenv("RWATCH_RECIPE_PATH").map({ String(cString: $0) }) {
            recipes += path.split(separator: ":").map(String.init)
        }
        recipes.append(FileSystem.directory(of: bin) + "/share/rwatch/recipes")
        if let tree = sourceTree(above: bin) { recipes.append(tree + "/recipes") }
        return recipes
    }

    /// Finds the installation of the running rwatch.
    static func current() throws -> Installation {
        let bin = FileSystem.directory(of: FileSystem.executable())
        let prefix = FileSystem.directory(of: bin)
        let recipes = recipeDirectories()
        let tree = sourceTree(above: bin)
        // In a build directory (<scratch>/<triple>/debug) the packages are checked out in <scratch>/checkouts.
        let checkouts = FileSystem.directory(of: prefix) + "/checkouts"
        let candidates = [
            (bin + "/Modules", bin, [
                (tree.map { $0 + "/Sources" } ?? bin) + "/CGlibcShims/include/module.modulemap",
                checkouts + "/swift-system/Sources/CSystem/include/module.modulemap",
            ]),
            (prefix + "/lib/rwatch/Modules", prefix + "/lib/rwatch", [
                prefix + "/lib/rwatch/Modules/CGlibcShims/module.modulemap",
                prefix + "/lib/rwatch/Modules/CSystem/module.modulemap",
            ]),
        ]
        for (index, (modules, library, maps)) in candidates.enumerated() {
            if FileSystem.exists(modules + "/RecipeKit.swiftmodule"), FileSystem.exists(library + "/libRecipeKit.so") {
                return Installation(modules: modules, library: library, recipeDirectories: recipes,
                                    moduleMaps: maps.filter(FileSystem.exists), isBuildTree: index == 0)
            }
        }
        // Say which part is missing where: a binary built alone (`swift
        // build --product rwatch`) has the module but not the library.
        let missing = candidates.map { modules, library, _ in
            [modules + "/RecipeKit.swiftmodule", library + "/libRecipeKit.so"].filter { !FileSystem.exists($0) }
        }.min { $0.count < $1.count } ?? []
        throw RWatchError("recipes need RecipeKit, and \(missing.joined(separator: " and ")) is missing; build it with make release (or make install)")
    }

    /// The package root above a build directory (`.build/<triple>/debug`).
    private static func sourceTree(above directory: String) -> String? {
        var current = directory
        while current != "/" && !current.isEmpty {
            if FileSystem.exists(current + "/Package.swift"), FileSystem.isDirectory(current + "/recipes") { return current }
            current = FileSystem.directory(of: current)
        }
        return nil
    }

    /// `swiftc`: `$SWIFTC`, else the first on `PATH`; a build tree's rwatch
    /// also tries the toolchain it was built with, where the developer's
    /// is. An installed rwatch looks no further than the user said: nil.
    func compiler() -> String? {
        if let explicit = getenv("SWIFTC").map({ String(cString: $0) }), !explicit.isEmpty { return explicit }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") where access("\(dir)/swiftc", X_OK) == 0 {
            return "\(dir)/swiftc"
        }
        if isBuildTree, access("/opt/swift/usr/bin/swiftc", X_OK) == 0 { return "/opt/swift/usr/bin/swiftc" }
        return nil
    }
}
