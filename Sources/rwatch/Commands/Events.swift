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

    @Argument(help: ArgumentHelp("Files or directories to watch, recursively (default .).", valueName: "path"), completion: .file())
    var paths: [String] = []

    @Option(name: [.customShort("W"), .customLong("watch-non-recursive")], help: ArgumentHelp("A directory to watch without its subdirectories (repeatable).", valueName: "path"), completion: .directory)
    var watchNonRecursive: [String] = []

    @Flag(help: "One JSON object per line.")
    var json = false

    @OptionGroup(title: "Which changes count")
    var files: WatchFlags

    @OptionGroup(title: "Output")
    var output: OutputFlags

    func validate() throws {
        try BackendOptions.checkPollValues()
        try WatchFlags.checkExist(paths + watchNonRecursive)
    }

    func run() throws {
        try output.apply()
        ClosedOutput.endProcessWhenUnread()
        let json = json
        let events = files.changes(recursive: RawArguments.paths(paths).map(FileSystem.absolute), nonRecursive: RawArguments.paths(watchNonRecursive).map(FileSystem.absolute)).events.map { event in
            Terminal.output(json ? JSONLine.encode(event) : "\(event.kind.rawValue) \(Quoted.escaped(event.path))", prefix: "", toStandardError: false)
            return event
        }
        ProcessSupervisor.exit(RecipeRunner.run(Recipe("events", "print file events") { events }, keys: false))
    }
}
