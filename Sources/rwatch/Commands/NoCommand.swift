import ArgumentParser

/// What `rwatch` does when it is given no command: the one place where
/// running the project recipe (`rwatch.swift`, found like `Package.swift`)
/// plugs in. Until then it is a usage error that says how to start.
enum NoCommand {
    static func run() throws -> Never {
        throw ValidationError("no command given: run rwatch COMMAND… (e.g. rwatch make), or rwatch init for a project recipe")
    }
}
