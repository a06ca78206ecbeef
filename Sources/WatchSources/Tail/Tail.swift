import Signals
import SystemPackage

/// Files followed like `tail -F`, as signals of lines.
public enum Tail {
    /// Where following begins in a file that exists at subscription time.
    /// `follow` starts at `.end`: the lines already there are not sent, so
    /// that a recipe that acts on lines (notifies, runs a command) does not
    /// act again on old ones each time it starts or reloads. `tail -F`
    /// shows the last 10 lines first: `.lastLines(10)` does the same, and
    /// `.lastMatching(10)` shows the last 10 that a pattern keeps.
    /// Files that appear later (created, or recreated by rotation) are
    /// always read from their beginning. A stream (a FIFO, a pipe, a
    /// terminal) has no beginning or end to count from: it is read from
    /// the moment it is opened, whatever the start.
    public enum Start: Sendable, Hashable {
        /// Every line already in the file, then new ones.
        case start
        /// Only lines written after subscribing.
        case end
        /// The last N lines already in the file, then new ones (`tail -n N`);
        /// an unfinished last line counts as one.
        case lastLines(Int)
        /// From line N on, counting from 1 (`tail -n +N`); `.line(1)` is `.start`.
        case line(Int)
        /// The last N lines already in the file that the `matching` pattern
        /// keeps, then new ones (`grep PATTERN FILE | tail -n N`, then
        /// follow): a log's last 10 errors, however far back they lie.
        /// Without a pattern, `.lastLines(N)`.
        case lastMatching(Int)
    }

    /// What `tail -F` reports on stderr about a followed name, for a
    /// follower to pass on (`rwatch tail` prints them unless `-q`).
    public enum Notice: Sendable, Hashable {
        /// The name does not exist (yet, or any more): lines start when it appears.
        case waiting(path: FilePath)
        /// A file appeared under a name that had none; it is read from its beginning.
        case appeared(path: FilePath)
        /// Another file took the name (rename-and-recreate rotation); the
        /// rest of the old one was read first.
        case rotated(path: FilePath)
        /// The file got shorter (`copytruncate`); reading starts over.
        case truncated(path: FilePath)
    }

    /// A line and the file it came from (the path as it was given; shown on
    /// a terminal through `Quoted.escaped`).
    public struct Line: Sendable, Hashable {
        public var path: FilePath
        public var text: String

        public init(path: FilePath, text: String) {
            self.path = path
            self.text = text
        }
    }

    /// The lines of one file, without `\n` or `\r\n`. See
    /// `follow(_:from:matching:)` for several files, and for FIFOs, pipes
    /// and `-` (standard input).
    ///
    ///     Tail.follow("/var/log/app.log").filter { $0.contains("ERROR") }
    ///     Tail.follow("/var/log/app.log", matching: try LinePattern("ERROR|FATAL"))
    public static func follow(
        _ path: FilePath, from start: Start = .end, matching pattern: LinePattern? = nil, backend: WatchBackend = .auto
    ) -> Signal<String> {
        SourceWorld.current.logs.follow(path, from: start, matching: pattern, backend: backend)
            .described("Tail.follow", Self.parameterLabels([path], start, pattern, backend))
    }

    /// `follow(_:from:matching:backend:)` for one path, from the kernel (`SourceWorld.live`).
    static func liveFollow(_ path: FilePath, from start: Start, matching pattern: LinePattern?, backend: WatchBackend) -> Signal<String> {
        // Its own producer rather than `map` on the tagged form: one
        // observer hop less per line.
        Signal.serial { observer in
            subscribe([path], start, pattern, backend, observer, TailSink(
                deliver: { _, text in observer.sendNextFromSource(text) },
                isStopped: { observer.isStopped },
                complete: { observer.sendCompleted() },
                fail: { observer.sendError($0) }
            ))
        }
    }

    /// The lines of several files, merged, each tagged with its path.
    ///
    /// Follows each name the way `tail -F` does, on its own inotify
    /// instance, or (`backend`) by polling: a name on a network or FUSE
    /// mount, or all of them when polling is asked for, or when inotify has
    /// no instance or watch left under `.auto` (with one warning in
    /// `FileWatcher.notices`). It waits for a file that does not exist yet (and
    /// for its directory, and across the directory being deleted and made
    /// again);
    /// after truncation (`copytruncate`) reads again from the beginning;
    /// after rename-and-recreate rotation (logrotate `create`) reads what is
    /// left in the old file, then the new one from its beginning. An
    /// unfinished last line is held until its newline arrives (or the file is
    /// rotated away). Invalid UTF-8 is decoded lossily.
    ///
    /// With a `pattern`, only matching lines are sent, and the others are
    /// dropped as bytes, before they cost a `String` or a trip through the
    /// signal: `tail -F | grep`, faster than that pair.
    ///
    /// A name that is not a regular file is read as a stream, as it is
    /// written, whatever `start` says, on any backend (its descriptor is
    /// polled, not watched): a named FIFO from writer to writer (each
    /// writer's unfinished last line is a line when it closes, and the FIFO
    /// is opened again for the next one, like `while :; do cat fifo; done`);
    /// a pipe (`-` or `/dev/stdin` for standard input, `/dev/fd/N` for
    /// `<(…)`), a terminal or another device until its end, where that
    /// name is done.
    ///
    /// Lines already in a file are left out unless `start` asks for them
    /// (`Start`): `from: .lastLines(10)` sends the last 10 of each file
    /// first, as `tail -F` does (a `pattern` then keeps those of them that
    /// match, as `tail -F | grep` would); `from: .lastMatching(10)` sends
    /// the last 10 that match the `pattern`.
    ///
    /// Completes only when every name is such a pipe or device and all of
    /// them have ended (like `tail -f` on a pipe); a file or FIFO is
    /// followed forever. Errors (a path that is a directory, a
    /// parent that is a file, no inotify watches left under `.inotify`)
    /// arrive as a `TailError`.
    /// Disposing stops the reading thread and closes every descriptor. A
    /// slow subscriber slows reading, never piles lines up in memory.
    ///
    /// The lines come from `SourceWorld.current.logs`, read when the
    /// signal is built: the kernel's, unless a recipe's tests gave another.
    public static func follow(
        _ paths: [FilePath], from start: Start = .end, matching pattern: LinePattern? = nil, backend: WatchBackend = .auto
    ) -> Signal<Line> {
        SourceWorld.current.logs.follow(paths, from: start, matching: pattern, backend: backend)
            .described("Tail.follow", Self.parameterLabels(paths, start, pattern, backend))
    }

    /// `follow(_:from:matching:backend:)` from the kernel (`SourceWorld.live`).
    static func liveFollow(_ paths: [FilePath], from start: Start, matching pattern: LinePattern?, backend: WatchBackend) -> Signal<Line> {
        Signal.serial { observer in
            subscribe(paths, start, pattern, backend, observer, TailSink(
                deliver: { path, text in observer.sendNextFromSource(Line(path: path, text: text)) },
                isStopped: { observer.isStopped },
                complete: { observer.sendCompleted() },
                fail: { observer.sendError($0) }
            ))
        }
    }

    /// `follow(_:from:matching:)` in batches: one array per read of a file
    /// (at most 1 MiB of it), for a subscriber that writes lines out and
    /// wants one `write` per batch rather than per line (`rwatch tail`).
    /// `notices` hears of names waited for, rotated and truncated, on the
    /// follower's thread, in order with the batches.
    package static func followBatches(
        _ paths: [FilePath], from start: Start = .end, matching pattern: LinePattern? = nil, backend: WatchBackend = .auto,
        notices: @escaping @Sendable (Notice) -> Void = { _ in }
    ) -> Signal<[Line]> {
        Signal.serial { observer in
            let batch = LineBatch()
            return subscribe(paths, start, pattern, backend, observer, TailSink(
                deliver: { path, text in batch.lines.append(Line(path: path, text: text)) },
                flush: {
                    guard !batch.lines.isEmpty else { return }
                    observer.sendNextFromSource(batch.take())
                },
                notice: notices,
                isStopped: { observer.isStopped },
                complete: { observer.sendCompleted() },
                fail: { observer.sendError($0) }
            ))
        }
    }

    /// `follow(_:from:matching:backend:)` for a path given as text.
    public static func follow(
        _ path: String, from start: Start = .end, matching pattern: LinePattern? = nil, backend: WatchBackend = .auto
    ) -> Signal<String> {
        follow(FilePath(path), from: start, matching: pattern, backend: backend)
    }

    /// `follow(_:from:matching:backend:)` for paths given as text.
    public static func follow(
        _ paths: [String], from start: Start = .end, matching pattern: LinePattern? = nil, backend: WatchBackend = .auto
    ) -> Signal<Line> {
        follow(paths.map { FilePath($0) }, from: start, matching: pattern, backend: backend)
    }

    /// The lines of the read under way, for `followBatches`.
    private final class LineBatch: @unchecked Sendable {
        // Safety: only the follower thread touches it (deliver, then flush).
        var lines: [Line] = []

        func take() -> [Line] {
            defer { lines = [] }
            return lines
        }
    }

    private static func subscribe<Value>(
        _ paths: [FilePath], _ start: Start, _ pattern: LinePattern?, _ backend: WatchBackend, _ observer: Observer<Value>,
        _ sink: TailSink
    ) -> any Disposable {
        do throws(TailError) {
            let follower = try TailFollower(paths: paths, start: start, pattern: pattern, backend: backend, sink: sink)
            guard follower.start() else {
                follower.cancel()
                throw TailError(path: paths.first ?? "", problem: "no thread available to follow it")
            }
            return ActionDisposable { follower.cancel() }
        } catch {
            observer.sendError(error)
            return ActionDisposable()
        }
    }
}
