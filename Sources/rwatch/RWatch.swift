import ArgumentParser
import RecipeKit

@main
struct RWatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rwatch",
        abstract: "Watch files, timers and processes; run commands when they change."
    )

    func run() throws {
        print(RWatch.helpMessage())
    }
}
