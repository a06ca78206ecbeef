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
            movedTo, attributes, overflow), or with --json one JSON object per line: \
            {"path":…,"kind":…,"isDirectory":…}.

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

    @OptionGroup var backendOptions: BackendOptions

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
        options.backend = backendOptions.backend
        return options
    }

    func run() throws {
        ClosedOutput.endProcessWhenUnread()
        // Which backend reports each root: the polled ones are announced by
        // the runner, the inotify ones here.
        let notices = FileWatcher.notices.subscribe(onNext: { notice in
            if case .inotify = notice.kind { Terminal.status(notice.description) }
        })
        defer { notices.dispose() }
        let json = json
        let events = FileWatcher.watch(paths.map(FileSystem.absolute), options: options).map { event in
            Terminal.output(json ? JSONLine.encode(event) : "\(event.kind.rawValue) \(event.path)", prefix: "", toStandardError: false)
            return event
        }
        Glibc.exit(RecipeRunner.run(Recipe("events", "print file events") { events }))
    }
}
