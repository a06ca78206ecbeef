import ArgumentParser
import Glibc
import RecipeKit

/// `rwatch events PATH… [--json]`: print file events as they come, like
/// `inotifywait -m -r`.
struct Events: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print file events as they come (like inotifywait -m -r).",
        discussion: """
            Each line is KIND PATH (created, modified, closedWrite, deleted, movedFrom, \
            movedTo, attributes, overflow), the path's control characters and bytes that \
            are not UTF-8 escaped (\\e, \\n, \\xff); or with --json one JSON object per line: \
            {"path":…,"kind":…,"isDirectory":…}, such bytes written \\udcXX (see rwatch(1)).

            Examples:
              rwatch events .
              rwatch events Sources --json | jq .path
            """
    )

    @Argument(help: ArgumentHelp("Files or directories to watch, recursively.", valueName: "path"))
    var paths: [String] = ["."]

    @Flag(help: "One JSON object per line.")
    var json = false

    @Option(name: [.customShort("f"), .long], help: ArgumentHelp("Only paths matching this glob (repeatable).", valueName: "glob"))
    var filter: [String] = []

    @Option(name: [.customShort("i"), .long], help: ArgumentHelp("Ignore paths matching this glob (repeatable).", valueName: "glob"))
    var ignore: [String] = []

    func validate() throws {
        for path in paths where !FileSystem.exists(path) {
            throw ValidationError("no such file or directory: \(Quoted.path(path))")
        }
        do {
            _ = try options.validated()
        } catch {
            throw ValidationError("\(error)")
        }
    }

    var options: WatchOptions {
        var options = WatchOptions()
        options.include = filter
        options.exclude = ignore
        return options
    }

    func run() throws {
        ClosedOutput.endProcessWhenUnread()
        let json = json
        let events = FileWatcher.watch(paths.map(FileSystem.absolute), options: options).map { event in
            Terminal.output(json ? JSONLine.encode(event) : "\(event.kind.rawValue) \(Quoted.escaped(event.path))", prefix: "", toStandardError: false)
            return event
        }
        Glibc.exit(RecipeRunner.run(Recipe("events", "print file events") { events }))
    }
}
