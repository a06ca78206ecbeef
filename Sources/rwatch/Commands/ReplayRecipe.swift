import ArgumentParser
import Glibc
import RecipeKit

/// `rwatch replay SESSION [RECIPE]`: what a recipe would have run during a
/// recorded session, on virtual time, running nothing.
struct ReplayRecipe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Show what a recipe would have run during a recorded session (rwatch events --json), running nothing.",
        discussion: """
            Plays the session's file events, at their own times, through the recipe on \
            virtual time, from this directory (the project recipe: from its own, as rwatch \
            runs it), and prints \
            the timeline: each run started, each signal sent (a restart's stop), each end, and \
            why a run started (the changed paths, as -v says). Every command is taken to \
            succeed at once. Arguments after -- reach the recipe as Recipe.arguments.

            Examples:
              rwatch events --json > session.jsonl     # work for a while, then Ctrl-C
              rwatch replay session.jsonl              # the project's rwatch.swift
              rwatch replay session.jsonl chain --json
            """
    )

    @Argument(help: ArgumentHelp("The session: what rwatch events --json printed.", valueName: "session"), completion: .file())
    var session: String

    @Argument(help: ArgumentHelp("A recipe file or a bundled recipe's name (default: the project's rwatch.swift).",
                                 valueName: "recipe"), completion: RecipeCompletion.kind)
    var recipe: String?

    @Flag(help: "The timeline as JSON lines: {\"time\",\"event\",\"command\",\"detail\",\"paths\"}.")
    var json = false

    @Argument(parsing: .postTerminator, help: ArgumentHelp("Arguments for the recipe (after --).", valueName: "args"))
    var arguments: [String] = []

    func run() throws {
        guard FileSystem.isRegularFile(session) else { throw RWatchError("no session at \(Quoted.path(session))") }
        let file = try TestRecipe.recipeFile(recipe)
        let binary = try RecipeCompiler.standard().replayBinary(recipe: file)
        let sessionFile = FileSystem.absolute(session)
        if recipe == nil {
            // The project recipe plays where `rwatch` would run it: its directory.
            let root = FileSystem.directory(of: file)
            guard chdir(root) == 0 else { throw RWatchError("cannot enter \(Quoted.path(root))") }
        }
        let environment = ["RWATCH_REPLAY": sessionFile, "RWATCH_REPLAY_FORMAT": json ? "json" : "text"]
        ProcessSupervisor.exit(Spawn.status([binary] + arguments, environment: environment))
    }
}
