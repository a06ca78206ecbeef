import ArgumentParser
import Glibc
import RecipeKit

/// `rwatch init`: writes a commented starter `rwatch.swift` for the
/// project it finds, never over an existing one.
struct InitRecipe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a starter rwatch.swift (the project recipe) for this project.",
        discussion: """
            The project root is the nearest directory, from here up, holding Package.swift, \
            Cargo.toml, go.mod, package.json, pyproject.toml, setup.py or a Makefile (else the \
            repository root, else this directory). The recipe builds and tests that kind of \
            project on every save; rwatch.tests.swift beside it tests that on virtual time \
            (rwatch test). An existing rwatch.swift is never overwritten. Then run \
            `rwatch` with no command.
            """
    )

    func run() throws {
        let root = ProjectKind.root(from: FileSystem.currentDirectory())
        let path = (root == "/" ? "" : root) + "/" + ProjectRecipe.fileName
        let starter = StarterRecipe(root: root)
        try FileSystem.create(starter.text, at: path)
        Terminal.status("wrote \(Quoted.path(path)) for \(starter.kind.title): \(starter.summary)", color: .green)
        // Its tests beside it, unless the project has some already.
        let tests = RecipeCompiler.testsFile(of: path)
        if !FileSystem.exists(tests) {
            try FileSystem.create(StarterTests(starter: starter).text, at: tests)
            Terminal.status("wrote \(Quoted.path(tests)): its tests, for rwatch test", color: .green)
        }
        Terminal.status("start it with: rwatch   (edit it while it runs: it reloads on save)")
    }
}
