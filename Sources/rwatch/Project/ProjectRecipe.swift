import Glibc
import RecipeKit

/// The project recipe: a file named `rwatch.swift` at the project's root,
/// found the way SwiftPM finds `Package.swift`, by walking up from the
/// working directory. `rwatch` with no command runs it.
enum ProjectRecipe {
    static let fileName = "rwatch.swift"

    /// The nearest `rwatch.swift` that is a regular file, in `directory`
    /// or one of the directories above it; nil when there is none.
    static func find(from directory: String) -> String? {
        var current = directory
        while true {
            let candidate = (current == "/" ? "" : current) + "/" + fileName
            if FileSystem.isRegularFile(candidate) { return candidate }
            if current == "/" || current.isEmpty { return nil }
            current = FileSystem.directory(of: current)
        }
    }

    /// The usage error for `rwatch` with neither a command nor a project
    /// recipe: one line saying both ways to start.
    static func missing(from directory: String) -> RWatchError {
        RWatchError("no command given and no \(fileName) in \(Quoted.path(directory)) or above: "
            + "run rwatch [options] COMMAND… (rwatch -e swift swift build), "
            + "or rwatch init to write a project recipe")
    }
}
