import Signals
import SystemPackage

/// Where a program's sources come from: file changes, the lines of
/// followed logs, and standard input. `FileWatcher.watch`, `Tail.follow`
/// and `Stdin.lines` ask `current` when a signal is built, so whoever
/// builds signals (a recipe's body) is handed its world rather than
/// reaching the kernel: `live` is the kernel's (inotify, polling, the
/// service), and a recipe's tests give a virtual tree and scripted logs.
///
/// `current` is a task-local value: bound around the code that builds the
/// signals (`RecipeWorld.evaluate`), and read there. A signal captures
/// its source when it is built; subscribing later changes nothing.
public struct SourceWorld: Sendable {
    /// File changes and the version-control state beside them.
    public var files: any FileSource
    /// The lines of followed files.
    public var logs: any LineSource
    /// The lines of standard input.
    public var input: @Sendable () -> Signal<String>
    /// The new files `files`' watchers hold for the save window (`NewFileHolds.shared`).
    public var newFileHolds: NewFileHolds

    /// A world of the given sources.
    public init(files: any FileSource, logs: any LineSource, input: @escaping @Sendable () -> Signal<String>, newFileHolds: NewFileHolds) {
        self.files = files
        self.logs = logs
        self.input = input
        self.newFileHolds = newFileHolds
    }

    /// The kernel's world: inotify (and polling, and a running `rwatch
    /// serve`) for files, `tail -F` for logs, descriptor 0 for input.
    public static let live = SourceWorld(files: LiveFileSource(), logs: LiveLineSource(), input: { Stdin.liveLines }, newFileHolds: .live)

    /// The world signals are built in now: `live` unless a caller bound another.
    @TaskLocal public static var current: SourceWorld = .live
}

/// Where file changes come from (`SourceWorld.files`).
public protocol FileSource: Sendable {
    /// The changes below `paths`, one array per change as one kernel event
    /// brought it (`FileWatcher.batches(_:options:)`).
    func batches(_ paths: [FilePath], options: WatchOptions) -> Signal<[FileEvent]>
    /// The state of the repositories holding `paths` (`FileWatcher.vcsState(for:)`).
    func vcsState(for paths: [FilePath]) -> Signal<VCSState>
    /// When `path` was last modified (nanoseconds on the wall clock); nil when it is gone.
    func modificationTime(_ path: FilePath) -> Int64?
    /// Now, on the clock of `modificationTime` (nanoseconds).
    func wallClock() -> Int64
}

/// Where the lines of followed files come from (`SourceWorld.logs`).
public protocol LineSource: Sendable {
    /// The lines of `paths`, each tagged with its path (`Tail.follow(_:from:matching:backend:)`).
    func follow(_ paths: [FilePath], from start: Tail.Start, matching pattern: LinePattern?, backend: WatchBackend) -> Signal<Tail.Line>
    /// The lines of one file (`Tail.follow(_:from:matching:backend:)` for one path).
    func follow(_ path: FilePath, from start: Tail.Start, matching pattern: LinePattern?, backend: WatchBackend) -> Signal<String>
}

/// The kernel's file changes: the reader, the poller and the service.
struct LiveFileSource: FileSource {
    func batches(_ paths: [FilePath], options: WatchOptions) -> Signal<[FileEvent]> {
        FileWatcher.liveBatches(paths, options: options)
    }

    func vcsState(for paths: [FilePath]) -> Signal<VCSState> {
        FileWatcher.vcsState(for: paths, reader: nil)
    }

    func modificationTime(_ path: FilePath) -> Int64? { FileSystem.modificationTime(path) }

    func wallClock() -> Int64 { FileSystem.wallClock() }
}

/// The kernel's logs: `tail -F`'s followers.
struct LiveLineSource: LineSource {
    func follow(_ paths: [FilePath], from start: Tail.Start, matching pattern: LinePattern?, backend: WatchBackend) -> Signal<Tail.Line> {
        Tail.liveFollow(paths, from: start, matching: pattern, backend: backend)
    }

    func follow(_ path: FilePath, from start: Tail.Start, matching pattern: LinePattern?, backend: WatchBackend) -> Signal<String> {
        Tail.liveFollow(path, from: start, matching: pattern, backend: backend)
    }
}
