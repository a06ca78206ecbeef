import Glibc
import RecipeKit

/// Compiles a recipe file into a binary with `swiftc` against RecipeKit,
/// the way SwiftPM compiles `Package.swift` against PackageDescription,
/// and caches the binary by content hash.
///
/// The text compiled is the one hashed: the file is read once, and that
/// copy is compiled (a save during the compile cannot put another text's
/// binary under this text's key). The copy starts with a
/// `#sourceLocation` naming the user's file, so the compiler's diagnostics
/// and a crash's backtrace point at the recipe's own file and line.
struct RecipeCompiler {
    let installation: Installation
    let cache: RecipeCache
    let swiftc: String

    /// The generated entry point. Bump `version` when it (or how the
    /// recipe's text is wrapped) changes.
    static let version = "rwatch-recipe-3"
    static let main = """
        import RecipeKit

        RecipeRunner.main(recipe)

        """

    /// The running rwatch's installation and cache, and a `swiftc` of the
    /// version RecipeKit was built with (else the one-line error of
    /// `Toolchain`).
    static func standard() throws -> RecipeCompiler {
        let installation = try Installation.current()
        let cache = try RecipeCache.open()
        let toolchain = try Toolchain.find(in: installation) { compilerVersion($0, cache: cache) }
        return RecipeCompiler(installation: installation, cache: cache, swiftc: toolchain.swiftc)
    }

    /// A recipe file's text, read once, and where the binary of exactly
    /// that text lives in the cache (it may not exist yet).
    struct Snapshot {
        /// The recipe file (as given; absolute when rwatch resolved it).
        let file: String
        /// Its text when it was read.
        let text: String
        /// The cache key: see `cacheKey(_:path:)`.
        let key: String
        /// Where the binary of `text` lives.
        let binary: String
    }

    /// The cached binary for `file`, compiling it first when the cache has
    /// none. Throws (after the compiler printed its diagnostics) when it
    /// does not compile.
    func binary(for file: String) throws -> String {
        try binary(for: try snapshot(of: file))
    }

    /// The binary of `snapshot`'s text, compiled from that text (not from
    /// the file, which may have changed since) when the cache has none.
    func binary(for snapshot: Snapshot) throws -> String {
        if access(snapshot.binary, X_OK) == 0 { return snapshot.binary }
        try compile(snapshot)
        return snapshot.binary
    }

    /// Reads `file` once and places it in the cache, without compiling:
    /// what a reload compares first.
    func snapshot(of file: String) throws -> Snapshot {
        let text = try FileSystem.read(file)
        guard text.contains("recipe") && text.contains("Recipe(") else {
            throw RWatchError("\(Quoted.path(file)): declares no recipe (expected `let recipe = Recipe(\"name\", \"what it does\") { … }`)")
        }
        let key = try cacheKey(text, path: file)
        return Snapshot(file: file, text: text, key: key, binary: cache.binary(for: key))
    }

    /// SHA-256 of the recipe's path and text, RecipeKit's build identity,
    /// the compiler's options and version. The path is part of it because the
    /// binary's debug information (crash reports, `#filePath`) names it.
    func cacheKey(_ text: String, path: String) throws -> String {
        var material = Self.version + "\u{0}" + path + "\u{0}" + text + "\u{0}"
        for file in ["\(installation.modules)/RecipeKit.swiftmodule", "\(installation.library)/libRecipeKit.so"] {
            material += "\(file) \(Self.identity(of: file))\u{0}"
        }
        material += flags.joined(separator: "\u{0}") + "\u{0}"
        material += Self.compilerVersion(swiftc, cache: cache) ?? swiftc
        return SHA256.hex(Array(material.utf8))
    }

    /// What is compiled for `text` read from `file`: the text, its lines
    /// and `#filePath` credited to `file`.
    static func source(_ text: String, file: String) -> String {
        "#sourceLocation(file: \(sourceLocationLiteral(file)), line: 1)\n" + text
    }

    /// `path` as the string literal `#sourceLocation` takes. The compiler
    /// reads that literal without unescaping it, so the path is written as
    /// it is; one it cannot hold (a quote, a backslash, a control
    /// character) is credited by its base name alone, made safe the same way.
    static func sourceLocationLiteral(_ path: String) -> String {
        let unsafe: (Unicode.Scalar) -> Bool = { $0 == "\"" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7f }
        guard path.unicodeScalars.contains(where: unsafe) else { return "\"" + path + "\"" }
        let base = path.split(separator: "/").last.map(String.init) ?? "recipe.swift"
        let kept = base.unicodeScalars.map { unsafe($0) ? "_" : String($0) }.joined()
        return "\"" + kept + "\""
    }

    /// The compiler's options, part of the cache key.
    var flags: [String] {
        [
            // Line tables: a crash report names the recipe's own line (full
            // -g adds a separate module job whose failure is one more
            // confusing line). The classic diagnostic style quotes the
            // offending line without numbering the copy's lines (one off
            // from the file's, for the directive).
            "-module-name", "RecipeBinary", "-swift-version", "6", "-Onone", "-gline-tables-only",
            "-diagnostic-style", "llvm",
            "-I", installation.modules, "-L", installation.library, "-lRecipeKit",
            "-Xlinker", "-rpath", "-Xlinker", installation.library,
        ] + installation.moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] }
    }

    private func compile(_ snapshot: Snapshot) throws {
        try compile(["main.swift": Self.main, "recipe.swift": Self.source(snapshot.text, file: snapshot.file)],
                    as: snapshot.key, naming: "recipe \(Quoted.path(snapshot.file))")
    }

    /// Compiles `sources` (file name in the scratch directory: text) into
    /// the cache's binary for `key`, with `extra` flags; `what` names it
    /// in the status line and the error.
    func compile(_ sources: [String: String], extra: [String] = [], as key: String, naming what: String) throws {
        Terminal.status("compiling \(what)…", color: .dim)
        let scratch = try cache.scratch()
        let names = sources.keys.sorted()
        for name in names { try FileSystem.write(sources[name]!, to: scratch + "/" + name) }
        // The driver's own temporary files go in the scratch directory too:
        // private, and gone with it even when the compile is stopped.
        let status = Spawn.status([swiftc] + flags + extra + names.map { scratch + "/" + $0 } + ["-o", scratch + "/recipe"],
                                  temporaryDirectory: scratch)
        for name in names { unlink(scratch + "/" + name) }
        guard status == 0 else {
            FileSystem.removeTree(scratch)
            // Stopped by a stop signal: rwatch is ending, not the recipe broken.
            if ProcessSupervisor.isEnding { throw RWatchError("the compile of \(what) was stopped") }
            throw RWatchError("\(what) does not compile (see the compiler's messages above)")
        }
        cache.store(scratch, as: key)
    }

    /// Size and modification time: changes whenever RecipeKit is rebuilt.
    static func identity(of path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "missing" }
        return "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_ino)"
    }

    /// `swiftc --version`, asked once per compiler binary (by its path and
    /// identity, so a toolchain replaced while rwatch runs is asked again):
    /// every reload hashes the recipe, and the question costs a process.
    /// `swiftc --version` makes a temporary directory and never removes it
    /// (the driver becomes the frontend by `exec`): it is given a scratch
    /// directory of the cache's, removed afterwards, so that nothing is
    /// left in `/tmp`.
    /// Nil when it gives no answer (only answers are kept).
    private static func compilerVersion(_ swiftc: String, cache: RecipeCache) -> String? {
        let asked = swiftc + " " + identity(of: swiftc)
        if let known = versions.withLock({ $0[asked] }) { return known }
        let scratch = try? cache.scratch()
        let version = Spawn.output([swiftc, "--version"], temporaryDirectory: scratch)
        if let scratch { FileSystem.removeTree(scratch) }
        if let version { versions.withLock { $0[asked] = version } }
        return version
    }

    private static let versions = Locked<[String: String]>([:])
}
