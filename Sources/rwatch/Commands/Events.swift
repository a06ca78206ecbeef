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
            {"path":…,"kind":…,"isDirectory":…,"time":…}, such bytes written \\udcXX, time in \
            seconds since the command started, monotonic (see rwatch(1)). Saved to a file, \
            that is a session for rwatch replay.

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
        // `"time"`: when the event was printed, on the monotonic clock,
        // since the command started (what `rwatch replay` plays back).
        let start = ContinuousClock.now
        let events = files.changes(recursive: RawArguments.paths(paths).map(FileSystem.absolute), nonRecursive: RawArguments.paths(watchNonRecursive).map(FileSystem.absolute)).events.map { event in
            let line = json ? JSONLine.encode(event, time: ContinuousClock.now - start) : "\(event.kind.rawValue) \(Quoted.escaped(event.path))"
            Terminal.output(line, prefix: "", toStandardError: false)
            return event
        }
        ProcessSupervisor.exit(RecipeRunner.run(Recipe("events", "print file events") { events }, keys: false))
    }
}
