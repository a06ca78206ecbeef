import RecipeKit

/// Followed logs in a `RecipeTest`: lines the test appends, sent to every
/// `Tail.follow` of that log as `tail -F` would (the lines already there as
/// the `Start` asks, then each new one), filtered by the follow's pattern.
final class VirtualLogs: LineSource, Sendable {
    private struct Follower {
        /// Each followed log by its absolute path, with the path as the recipe gave it.
        let paths: [FilePath: FilePath]
        let pattern: LinePattern?
        let observer: Observer<Tail.Line>
    }

    private struct State {
        var lines: [FilePath: [String]] = [:]
        var followers: [Int: Follower] = [:]
        var next = 0
    }

    private let state = Locked(State())
    private let absolute: @Sendable (FilePath) -> FilePath

    /// Logs whose relative paths `absolute` resolves.
    init(absolute: @escaping @Sendable (FilePath) -> FilePath) {
        self.absolute = absolute
    }

    /// Appends `lines` to the log at `path` and sends them to its followers.
    func append(_ lines: [String], to path: FilePath) {
        let path = absolute(path)
        let observers = state.withLock { state -> [(Observer<Tail.Line>, LinePattern?, FilePath)] in
            state.lines[path, default: []] += lines
            return state.followers.values.compactMap { follower in follower.paths[path].map { (follower.observer, follower.pattern, $0) } }
        }
        for (observer, pattern, given) in observers {
            for line in lines where pattern?.matches(line) ?? true { observer.sendNext(Tail.Line(path: given, text: line)) }
        }
    }

    func follow(_ paths: [FilePath], from start: Tail.Start, matching pattern: LinePattern?, backend: WatchBackend) -> Signal<Tail.Line> {
        let followed = Dictionary(paths.map { (absolute($0), $0) }, uniquingKeysWith: { first, _ in first })
        return Signal { [self] observer in
            let (id, existing) = state.withLock { state -> (Int, [Tail.Line]) in
                defer { state.next += 1 }
                state.followers[state.next] = Follower(paths: followed, pattern: pattern, observer: observer)
                let existing = paths.flatMap { path in
                    Self.already(state.lines[absolute(path)] ?? [], from: start, pattern: pattern).map { Tail.Line(path: path, text: $0) }
                }
                return (state.next, existing)
            }
            for line in existing { observer.sendNext(line) }
            return ActionDisposable { [self] in
                _ = state.withLock { $0.followers.removeValue(forKey: id) }
            }
        }
    }

    func follow(_ path: FilePath, from start: Tail.Start, matching pattern: LinePattern?, backend: WatchBackend) -> Signal<String> {
        follow([path], from: start, matching: pattern, backend: backend).map(\.text)
    }

    /// The lines already in a log that a follow starting at `start` sends first.
    private static func already(_ lines: [String], from start: Tail.Start, pattern: LinePattern?) -> [String] {
        let kept = { (lines: [String]) in lines.filter { pattern?.matches($0) ?? true } }
        switch start {
        case .start: return kept(lines)
        case .end: return []
        case .lastLines(let count): return kept(Array(lines.suffix(max(count, 0))))
        case .line(let number): return kept(Array(lines.dropFirst(max(number - 1, 0))))
        case .lastMatching(let count): return Array(kept(lines).suffix(max(count, 0)))
        }
    }
}
