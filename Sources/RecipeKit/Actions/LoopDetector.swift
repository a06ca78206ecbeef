import SystemPackage

/// Notices a command that keeps starting itself: a build that writes into
/// the tree it is watched for (entr #101). When several runs in a row
/// (`streak`) were each started only by what the run before evidently
/// wrote, it says so once, naming the paths and the ignore flag that would
/// stop it; it never ignores anything on its own.
///
/// inotify cannot say who wrote a file, so "the run wrote it" rests on
/// timing that a person's edits do not keep up, run after run:
/// - a run that ended by itself, and every path of the next trigger was
///   written while it ran, the last of them in its final `endMoment`
///   (a build writes its output as it finishes; an edit lands anywhere
///   in a build, and seldom in its last half second three times running);
/// - a run that rwatch stopped for the next trigger (`-r`): every path was
///   written within `startMoment` of its start (a server that writes a file
///   as it starts; a person's save comes seconds after a restart).
/// A server under `-r` is alive whenever its source is saved, so "written
/// while it ran" alone would blame every edit on it.
///
/// Times are passed in (wall clock, nanoseconds): tested without files or
/// clocks. A path that no longer exists tells nothing either way; a
/// trigger with no path (the `r` key, the first run) ends a streak.
struct LoopDetector {
    /// What to tell the user: the paths behind the last runs.
    struct Warning: Equatable {
        var runs: Int
        var paths: [FilePath]
    }

    /// How many runs in a row make a loop worth a word.
    static let streak = 3
    /// Slack around a run's window: file times come from a coarse clock.
    static let slack: Int64 = 20_000_000
    /// The end of a run that ended by itself, where its own writes land.
    static let endMoment: Int64 = 500_000_000
    /// The start of a run stopped for the next trigger, where its own writes land.
    static let startMoment: Int64 = 250_000_000

    /// When a set of runs went, and whether rwatch stopped it.
    private struct Span {
        var start: Int64
        var end: Int64
        var stopped: Bool

        /// The paths of a trigger that are the span's own writing: those in
        /// its telling moment, when every path was written while it ran
        /// and the last in that moment; nil when the trigger is not its own.
        func own(_ present: [(FilePath, Int64)]) -> [FilePath]? {
            let slack = LoopDetector.slack
            guard let latest = present.map(\.1).max(), present.allSatisfy({ $0.1 >= start - slack && $0.1 <= end + slack })
            else { return nil }
            let moment = stopped ? (start - slack)...(start + LoopDetector.startMoment + slack)
                : (end - LoopDetector.endMoment - slack)...(end + slack)
            guard stopped ? present.allSatisfy({ moment.contains($0.1) }) : moment.contains(latest) else { return nil }
            return present.filter { moment.contains($0.1) }.map(\.0)
        }
    }

    /// The span of the last set that ran, and the start of the one going.
    private var last: Span?
    private var current: Int64?
    private var count = 0
    private var paths: [FilePath] = []
    private var warned = false

    /// A set starts at `now`, for paths with these modification times (nil:
    /// gone). Returns the warning when this run makes the streak.
    mutating func started(at now: Int64, paths changed: [(path: FilePath, modified: Int64?)]) -> Warning? {
        defer { current = now }
        let present = changed.compactMap { entry in entry.modified.map { (entry.path, $0) } }
        guard let last, let own = last.own(present) else {
            count = 0
            paths = []
            warned = false
            return nil
        }
        count += 1
        for path in own where !paths.contains(path) { paths.append(path) }
        guard count >= Self.streak, !warned else { return nil }
        warned = true
        return Warning(runs: count, paths: paths)
    }

    /// The set that started last ended at `now`: by itself, or `stopped`
    /// by rwatch (a restart, a timeout).
    mutating func ended(at now: Int64, stopped: Bool = false) {
        guard let current else { return }
        last = Span(start: current, end: max(now, current), stopped: stopped)
        self.current = nil
    }

    /// The `-i` flags that would ignore `paths` (relative to `base`): one
    /// glob for their common directory, else one per file, at most three.
    static func ignoreFlags(for paths: [FilePath], base: FilePath) -> [String] {
        let relative = paths.map { FileSystem.relative($0, to: base) ?? $0 }
        let directories = Set(relative.map { $0.removingLastComponent() })
        if directories.count == 1, let directory = directories.first, !directory.isEmpty, directory != "/" {
            return ["-i " + quoted(directory.string + "/**")]
        }
        return relative.prefix(3).map { "-i " + quoted($0.string) }
    }

    private static func quoted(_ text: String) -> String {
        "'" + Quoted.escaped(text).split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
