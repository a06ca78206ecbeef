import ArgumentParser
import RecipeKit

/// `--watch-backend` and `--poll[=INTERVAL]`: how rwatch learns of changes,
/// shared by the watch, `events` and `tail` commands.
struct BackendOptions: ParsableArguments {
    /// The values `--watch-backend` takes.
    enum Choice: String, ExpressibleByArgument, CaseIterable {
        case auto, inotify, poll
    }

    @Option(name: .customLong("watch-backend"), help: ArgumentHelp(
        "auto (default): inotify, but poll network and FUSE mounts and what inotify has no watch left for; inotify: inotify only; poll: poll everything.",
        valueName: "backend"))
    var watchBackend: Choice?

    @Option(name: .customLong("poll"), defaultAsFlag: WatchBackend.defaultInterval, parsing: .next, help: ArgumentHelp(
        "Poll everything instead of using inotify, a pass every INTERVAL (default 500ms): --poll, --poll=2s.",
        valueName: "interval"), transform: DurationParser.parse)
    var poll: Duration?

    func validate() throws {
        if let poll, poll <= .zero { throw ValidationError("--poll needs an interval above zero") }
        if poll != nil, let watchBackend, watchBackend != .poll {
            throw ValidationError("--poll and --watch-backend \(watchBackend.rawValue) contradict each other")
        }
    }

    /// The backend these flags ask for.
    var backend: WatchBackend {
        if let poll { return .poll(interval: poll) }
        switch watchBackend ?? .auto {
        case .auto: return .auto
        case .inotify: return .inotify
        case .poll: return .poll(interval: WatchBackend.defaultInterval)
        }
    }
}
