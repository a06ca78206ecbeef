import Glibc
import RecipeKit

/// Compiles a recipe file into a binary with `swiftc` against RecipeKit,
/// the way SwiftPM compiles `Package.swift` against PackageDescription,
/// and caches the binary by content hash.
///
/// The user's file is compiled by its own path next to a generated
/// `main.swift` that runs `recipe`, so the compiler's diagnostics point at
/// the recipe's own file and line.
struct RecipeCompiler {
    let installation: Installation
    let cache: RecipeCache
    let swiftc: String

    /// The generated entry point. Bump `version` when it changes.
    static let version = "rwatch-recipe-2"
    static let main = """
        import RecipeKit

        RecipeRunner.main(recipe)

        """

    static func standard() throws -> RecipeCompiler {
        RecipeCompiler(installation: try Installation.current(), cache: try RecipeCache.open(), swiftc: try Installation.compiler())
    }

    /// The cached binary for `file`, compiling it first when the cache has
    /// none. Throws (after the compiler printed its diagnostics) when it
    /// does not compile.
    func binary(for file: String) throws -> String {
        let (key, binary) = try place(for: file)
        if access(binary, X_OK) == 0 { return binary }
        try compile(file, into: key)
        return binary
    }

    /// The cache key of `file`'s text now and where its binary lives (or
    /// will), without compiling: what a reload compares first.
    func place(for file: String) throws -> (key: String, binary: String) {
        let text = try FileSystem.read(file)
        guard text.contains("recipe") && text.contains("Recipe(") else {
            throw RWatchError("\(Quoted.path(file)): declares no recipe (expected `let recipe = Recipe(\"name\", \"what it does\") { … }`)")
        }
        let key = try cacheKey(text, path: file)
        return (key, cache.binary(for: key))
    }

    /// SHA-256 of the recipe's path and text, RecipeKit's build identity
    /// and the compiler's version. The path is part of it because the
    /// binary's debug information (crash reports, `#filePath`) names it.
    func cacheKey(_ text: String, path: String) throws -> String {
        var material = Self.version + "\u{0}" + path + "\u{0}" + text + "\u{0}"
        for file in ["\(installation.modules)/RecipeKit.swiftmodule", "\(installation.library)/libRecipeKit.so"] {
            material += "\(file) \(Self.identity(of: file))\u{0}"
        }
        material += Self.compilerVersion(swiftc)
        return SHA256.hex(Array(material.utf8))
    }

    private func compile(_ file: String, into key: String) throws {
        Terminal.status("compiling recipe \(Quoted.path(file))…", color: .dim)
        let scratch = try cache.scratch()
        try FileSystem.write(Self.main, to: scratch + "/main.swift")
        let arguments = [
            // -g: a crash report names the recipe's own line.
            swiftc, "-module-name", "RecipeBinary", "-swift-version", "6", "-Onone", "-g",
            "-I", installation.modules, "-L", installation.library, "-lRecipeKit",
            "-Xlinker", "-rpath", "-Xlinker", installation.library,
        ] + installation.moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] } + [
            file, scratch + "/main.swift", "-o", scratch + "/recipe",
        ]
        let status = Spawn.status(arguments)
        unlink(scratch + "/main.swift")
        guard status == 0 else {
            FileSystem.removeTree(scratch)
            throw RWatchError("recipe \(Quoted.path(file)) does not compile (see the compiler's messages above)")
        }
        cache.store(scratch, as: key)
    }

    /// Size and modification time: changes whenever RecipeKit is rebuilt.
    private static func identity(of path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "missing" }
        return "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_ino)"
    }

    private static func compilerVersion(_ swiftc: String) -> String {
        Spawn.output([swiftc, "--version"]) ?? swiftc
    }
}
