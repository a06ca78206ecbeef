import ArgumentParser
import RecipeKit

/// `--watch-backend` and `--poll[=INTERVAL]`: how rwatch learns of changes.
/// Part of `WatchFlags` (the watch and `events` commands), and used by
/// `tail` on its own.
struct BackendOptions: ParsableArguments {
    /// The values `--watch-backend` takes.
    enum Choice: String, ExpressibleByArgument, CaseIterable {
        case auto, inotify, poll
    }

    @Option(name: .customLong("watch-backend"), help: ArgumentHelp(
        "auto (default): inotify, but poll network and FUSE mounts and what inotify has no watch left for; inotify: inotify only; poll: poll everything.",
        valueName: "backend"))
    var watchBackend: Choice?

    /// `--poll`'s value, shown as it is written (`500ms`).
    struct Interval: CustomStringConvertible {
        var duration: Duration
        var description: String { WatchNotice.format(duration) }
    }

    @Option(name: .customLong("poll"), defaultAsFlag: Interval(duration: WatchBackend.defaultInterval), parsing: .next, help: ArgumentHelp(
        "Poll everything instead of using inotify, a pass every INTERVAL: --poll, --poll=2s.",
        valueName: "interval"), transform: { Interval(duration: try DurationParser.parse($0)) })
    var poll: Interval?

    func validate() throws {
        if let poll, poll.duration <= .zero { throw ValidationError("--poll needs an interval above zero") }
        if poll != nil, let watchBackend, watchBackend != .poll {
            throw ValidationError("--poll and --watch-backend \(watchBackend.rawValue) contradict each other")
        }
    }

    /// `--poll=VALUE` names its value: one that is no duration must be an
    /// error, not fall back to the flag's default without a word, as the
    /// parser does for an option that may stand alone. `passedThrough`:
    /// how many trailing words are the command's own (not rwatch's).
    static func checkPollValues(passedThrough: Int = 0) throws {
        let own = CommandLine.arguments.dropFirst().dropLast(passedThrough).prefix { $0 != "--" }
        for argument in own where argument.hasPrefix("--poll=") {
            do {
                _ = try DurationParser.parse(String(argument.dropFirst("--poll=".count)))
            } catch {
                throw ValidationError("--poll: \(error)")
            }
        }
    }

    /// The backend these flags ask for.
    var backend: WatchBackend {
        if let poll { return .poll(interval: poll.duration) }
        switch watchBackend ?? .auto {
        case .auto: return .auto
        case .inotify: return .inotify
        case .poll: return .poll(interval: WatchBackend.defaultInterval)
        }
    }
}
