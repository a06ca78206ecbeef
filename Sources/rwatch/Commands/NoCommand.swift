import ArgumentParser
import Glibc
import RecipeKit
import SystemPackage

/// What `rwatch` does when it is given no command: it runs the project
/// recipe, the nearest `rwatch.swift` at or above the working directory
/// (found like `Package.swift`), from that file's directory, and reloads
/// it when it is saved. Without one, it is a usage error that says how to
/// start.
enum NoCommand {
    static func run(verbose: Bool) throws -> Never {
        // Watch options without a command are a mistake, not a request for
        // the project recipe (which does its own watching).
        let given = CommandLine.arguments.dropFirst().filter { !["watch", "-v", "--verbose"].contains($0) }
        guard given.isEmpty else {
            throw ValidationError("no command given: run rwatch [options] COMMAND… (e.g. rwatch -e swift swift build); with no option at all, rwatch runs the project's rwatch.swift")
        }
        let here = FileSystem.currentDirectory()
        guard let file = ProjectRecipe.find(from: here) else { throw ProjectRecipe.missing(from: here) }
        let root = FileSystem.directory(of: file)
        guard chdir(root) == 0 else { throw RWatchError("cannot enter \(Quoted.path(root)): \(Errno(rawValue: errno).description)") }
        let options = RecipeHost.Options(file: file, verbose: verbose, reloads: true)
        ProcessSupervisor.exit(try RecipeHost(options, compiler: try RecipeCompiler.standard()).run())
    }
}
