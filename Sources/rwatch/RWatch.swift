import ArgumentParser
import Glibc
import RecipeKit

/// The `rwatch` command: ad-hoc watch-and-run by default, plus the recipe
/// and inspection subcommands.
@main
struct RWatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rwatch",
        abstract: "Watch files, timers and processes; run commands when they change.",
        discussion: """
            With no subcommand, rwatch watches files and runs COMMAND on every change; \
            the first word that is not an option starts COMMAND and the rest is passed \
            through untouched (put -- before a program named like a subcommand). Changed \
            paths reach the command as RWATCH_PATHS, RWATCH_COMMON_PATH and \
            RWATCH_EVENTS_FILE, never pasted into it. With no argument at all, rwatch \
            runs the project recipe: the nearest rwatch.swift in this directory or above \
            (rwatch init writes one), reloaded when you save it.

            Examples:
              rwatch -e swift swift build                 (rebuild on save)
              rwatch -r -w Sources swift run server       (restart a server)
              rwatch -1 make test                         (run once, exit with its status)
              rwatch --shell sh 'echo "$RWATCH_PATHS"'    (see what changed)
              rwatch -e c -j 4 -- cc -c {} -o {}.o        (one run per changed file)
              rwatch -r --build make -- ./server          (restart only after a passing build)
              rwatch -r --socket 8080 -- ./server         (no connection refused across restarts)
              rwatch init && rwatch                       (the project recipe)
              rwatch run rebuild-on-save                  (a bundled recipe)
              rwatch check my-recipe.swift                (compile a recipe only)
              rwatch graph chain                          (a recipe's pipelines, as a tree)
              rwatch events . --json                      (file events as JSON lines)
              rwatch tail app.log --grep 'error|warn'     (follow a log, filtered)

            Exit status: 0 ok; under --once the command's own status (128+N when it died \
            of signal N); 2 usage or recipe error; 130 after Ctrl-C. See man rwatch.
            """,
        version: Version.line,
        subcommands: [Watch.self, RunRecipe.self, CheckRecipe.self, TestRecipe.self, GraphRecipe.self, ReplayRecipe.self, ListRecipes.self, InitRecipe.self, Events.self, TailFiles.self, Serve.self, WatchmanSubcommand.self, PrintCompletions.self, PrintVersion.self],
        defaultSubcommand: Watch.self
    )

    /// Parses and runs; any usage or recipe error is one line on stderr and
    /// exit status 2 (ArgumentParser's default would be 64).
    static func main() {
        // watchman's command line (rwatch run as `watchman`, or `rwatch
        // watchman`): a plain client, whose signals keep their defaults.
        if let program = RawArguments.all.first,
           let arguments = WatchmanCommand.arguments(program: program, arguments: Array(RawArguments.all.dropFirst())) {
            WatchmanCommand.main(arguments)
        }
        // First, before any thread exists: every thread inherits the
        // blocked stop signals, and one owner handles them from now on.
        ProcessSupervisor.takeOverSignals()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if RootHelp.isRequested(arguments) {
            Swift.print(RootHelp.text(columns: HelpWidth.current))
            Glibc.exit(0)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            // A stop signal is ending rwatch and caused this error (a compile
            // stopped, a spawn refused): the signal owner exits 128+N.
            if ProcessSupervisor.isEnding { ProcessSupervisor.waitForEnd() }
            if exitCode(for: error) == .success {
                Swift.print(fullMessage(for: error, columns: HelpWidth.current))
                Glibc.exit(0)
            }
            Terminal.error(usageLine(for: error, arguments: arguments))
            ProcessSupervisor.exit(2)
        }
    }

    /// The one line a usage error prints: the first of ArgumentParser's
    /// message, lower-cased like rwatch's own, and for an unknown option
    /// rwatch's `UnknownOption` with its suggestion from the options of
    /// the subcommand `arguments` run.
    static func usageLine(for error: any Error, arguments: [String]) -> String {
        let line = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
        guard let name = UnknownOption.name(inParserMessage: line) else { return lowercasingFirstWord(line) }
        return UnknownOption(name, of: try? CommandDescription.current().subcommand(for: arguments)).description
    }

    /// ArgumentParser's messages start with a capital ("Unknown option");
    /// rwatch's own are lower-case after `error:`, like the compilers'.
    static func lowercasingFirstWord(_ line: String) -> String {
        guard let first = line.first, first.isUppercase,
              line.dropFirst().prefix(while: { $0 != " " }).allSatisfy({ $0.isLowercase }) else { return line }
        return first.lowercased() + line.dropFirst()
    }
}
