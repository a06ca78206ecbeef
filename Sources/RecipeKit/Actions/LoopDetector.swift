import SystemPackage

/// Notices a command that keeps starting itself: a build that writes into
/// the tree it is watched for (entr #101). When several runs in a row
/// (`streak`) were each started only by paths written while the run
/// before was going, it says so once, naming the paths and the ignore
/// flag that would stop it; it never ignores anything on its own.
///
/// "Written while the run was going" is read from each path's modification
/// time: a value type with the times passed in (wall clock, nanoseconds),
/// so it is tested without files or clocks. A path that no longer exists
/// tells nothing either way; a trigger with no path (the `r` key, the
/// first run) ends a streak.
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

    /// The window of the last set that ran, and the start of the one going.
    private var last: ClosedRange<Int64>?
    private var current: Int64?
    private var count = 0
    private var paths: [FilePath] = []
    private var warned = false

    /// A set starts at `now`, for paths with these modification times (nil:
    /// gone). Returns the warning when this run makes the streak.
    mutating func started(at now: Int64, paths changed: [(path: FilePath, modified: Int64?)]) -> Warning? {
        defer { current = now }
        let present = changed.compactMap { entry in entry.modified.map { (entry.path, $0) } }
        guard let last, !present.isEmpty,
              present.allSatisfy({ $0.1 >= last.lowerBound - Self.slack && $0.1 <= last.upperBound + Self.slack }) else {
            count = 0
            paths = []
            warned = false
            return nil
        }
        count += 1
        for (path, _) in present where !paths.contains(path) { paths.append(path) }
        guard count >= Self.streak, !warned else { return nil }
        warned = true
        return Warning(runs: count, paths: paths)
    }

    /// The set that started last ended at `now`.
    mutating func ended(at now: Int64) {
        guard let current else { return }
        last = current...max(now, current)
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
