import RecipeKit

/// The commented `rwatch.swift` that `rwatch init` writes: a recipe that
/// builds and tests the project on every save, in the way its kind
/// usually does, with a note on each line saying what it does and how to
/// change it.
struct StarterRecipe {
    var kind: ProjectKind
    /// The recipe's name: the project directory's name.
    var name: String
    /// Which of the usual source directories exist (the recipe watches
    /// those; a watched path that does not exist is an error).
    var existing: Set<String>

    /// The starter for the project at `root`.
    init(root: String) {
        kind = ProjectKind.of(root)
        name = Self.recipeName(root.split(separator: "/").last.map(String.init) ?? "")
        existing = Set(["Sources", "Tests", "src", "tests", "test", "lib", "cmd", "internal"].filter {
            FileSystem.isDirectory(root + "/" + $0)
        })
    }

    init(kind: ProjectKind, name: String, existing: Set<String>) {
        self.kind = kind
        self.name = Self.recipeName(name)
        self.existing = existing
    }

    /// A name that is safe inside a Swift string literal and reads well in
    /// status lines: letters, digits, `.`, `_` and `-`; else "project".
    static func recipeName(_ directoryName: String) -> String {
        let kept = directoryName.unicodeScalars.filter { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar))
        }
        let name = String(String.UnicodeScalarView(kept))
        return name.isEmpty || name.hasPrefix(".") ? "project" : name
    }

    /// A Swift array literal of the directories among `candidates` that
    /// exist, or `["."]`.
    private func watched(_ candidates: [String]) -> String {
        let found = candidates.filter(existing.contains)
        return "[" + (found.isEmpty ? ["."] : found).map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }

    /// What `rwatch init` says the recipe does.
    var summary: String {
        switch kind {
        case .swiftPackage: return "swift build on every save, then swift test if the build passed"
        case .cargo: return "cargo build on every save, then cargo test if the build passed"
        case .go: return "go build ./... on every save, then go test ./... if the build passed"
        case .node: return "npm test on every save"
        case .python: return "pytest on every save"
        case .make: return "make on every save"
        case .plain: return "prints what changed on every save"
        }
    }

    /// The file's text.
    var text: String {
        header + "let recipe = Recipe(\"\(name)\", \"\(summary)\") {\n" + body + "}\n"
    }

    private var header: String {
        """
        import RecipeKit

        // rwatch.swift: the recipe of this project (\(kind.title)), written by
        // `rwatch init`. Run `rwatch` with no command anywhere in the project:
        // it finds this file the way SwiftPM finds Package.swift, compiles it,
        // runs it from this directory, and reloads it whenever you save it (a
        // broken edit is reported and the running recipe keeps going).
        // `man rwatch` (WRITING RECIPES) lists what a recipe can use.
        //
        // Every signal written in the braces below is one pipeline; pipelines
        // run side by side until Ctrl-C.


        """
    }

    private var body: String {
        switch kind {
        case .swiftPackage:
            return """
                    // Every .swift file under these directories (.gitignore is honoured).
                    FileWatcher.watch(\(watched(["Sources", "Tests"])), options: .matching("**/*.swift"))
                        // One run per burst of saves: wait until 100 ms pass without one
                        // (and for a new file the watcher holds, so a save of several files is one run).
                        .batched(.milliseconds(100), holdingNewFiles: .shared)
                        // Also run once now, not only at the first save.
                        .startingNow()
                        // A save during a build stops it (its whole process group) and starts again.
                        .run(["swift", "build"], onBusy: .restart)
                        // Only after a build that passed; each step is named in the status lines.
                        .then(["swift", "test"])

                    // To keep a server up instead, restart it on every save:
                    //     .run(["swift", "run", "MyServer"], onBusy: .restart,
                    //          options: RunOptions(outputPrefix: "[server] "))

                """
        case .cargo:
            return """
                    // Rust sources and the manifest; target/ is in .gitignore and so not watched.
                    FileWatcher.watch(["."], options: WatchOptions(include: ["**/*.rs", "**/Cargo.toml"], exclude: ["target"]))
                        // One run per burst of saves: wait until 100 ms pass without one.
                        .batched(.milliseconds(100), holdingNewFiles: .shared)
                        // Also run once now, not only at the first save.
                        .startingNow()
                        // A save during a build stops it (its whole process group) and starts again.
                        .run(["cargo", "build"], onBusy: .restart)
                        // Only after a build that passed.
                        .then(["cargo", "test"])

                """
        case .go:
            return """
                    // Go sources and the module files.
                    FileWatcher.watch(["."], options: WatchOptions(include: ["**/*.go", "go.mod", "go.sum"]))
                        // One run per burst of saves: wait until 100 ms pass without one.
                        .batched(.milliseconds(100), holdingNewFiles: .shared)
                        // Also run once now, not only at the first save.
                        .startingNow()
                        // A save during a build stops it (its whole process group) and starts again.
                        .run(["go", "build", "./..."], onBusy: .restart)
                        // Only after a build that passed.
                        .then(["go", "test", "./..."])

                """
        case .node:
            return """
                    // Sources and configuration, not node_modules.
                    FileWatcher.watch(["."], options: WatchOptions(
                        exclude: ["node_modules", "dist", "build", "coverage"],
                        extensions: ["js", "mjs", "cjs", "jsx", "ts", "tsx", "json"]))
                        // One run per burst of saves: wait until 100 ms pass without one.
                        .batched(.milliseconds(100), holdingNewFiles: .shared)
                        // Also run once now, not only at the first save.
                        .startingNow()
                        // A save during a run stops it (its whole process group) and starts again.
                        .run(["npm", "test"], onBusy: .restart)

                    // A dev server instead, restarted on every save, its lines prefixed:
                    //     .run(["npm", "run", "dev"], onBusy: .restart,
                    //          options: RunOptions(outputPrefix: "[dev] "))

                """
        case .python:
            return """
                    // Python sources; __pycache__, *.pyc and virtual environments are skipped.
                    FileWatcher.watch(["."], options: WatchOptions(
                        exclude: [".venv", "venv", ".tox", "build", "dist"],
                        extensions: ["py"]))
                        // One run per burst of saves: wait until 100 ms pass without one.
                        .batched(.milliseconds(100), holdingNewFiles: .shared)
                        // Also run once now, not only at the first save.
                        .startingNow()
                        // A save during a run stops it (its whole process group) and starts again.
                        .run(["python3", "-m", "pytest", "-q"], onBusy: .restart)

                """
        case .make:
            return """
                    // Everything but what make writes: list your build outputs in .gitignore
                    // (or in exclude:) so that a build does not start the next one.
                    FileWatcher.watch(["."], options: WatchOptions(exclude: ["*.o", "*.a", "*.so"]))
                        // One run per burst of saves: wait until 100 ms pass without one.
                        .batched(.milliseconds(100), holdingNewFiles: .shared)
                        // Also run once now, not only at the first save.
                        .startingNow()
                        // A save during a build waits for it, then builds once more.
                        .run(["make"], onBusy: .queue)

                """
        case .plain:
            return """
                    // Every file under this directory (.gitignore is honoured).
                    FileWatcher.watch(["."])
                        // One batch per burst of saves: wait until 100 ms pass without one.
                        .batched(.milliseconds(100), holdingNewFiles: .shared)
                        // One line per batch; replace this with .run(["your", "command"]).
                        .map { batch in "changed: " + batch.paths.map(Quoted.path).joined(separator: " ") }
                        .print()

                """
        }
    }
}
