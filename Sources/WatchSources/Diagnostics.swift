import Signals
import Synchronization

/// The one channel for diagnostics: why a run happened, which rule dropped
/// a path, what a watch covers, and a copy of the status lines and errors
/// the terminal showed.
///
/// Nothing is built or written until a sink is installed: a message is an
/// autoclosure, and a call with no sink costs one atomic load. The `rwatch`
/// command installs a sink for `-v` (verbose lines on stderr) and
/// `--log-file` (every level, to a file); a program using WatchSources as
/// a library may install its own.
///
///     Diagnostics.verbose("dropped \(Quoted.path(path)): ignored by \(rule)")
///
/// Every message reaches the sink with its control characters escaped
/// (`Quoted.line`): one message, one line, nothing a terminal acts on.
public enum Diagnostics {
    /// How much a message matters, least first.
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        /// Why something happened (`-v`).
        case verbose
        /// A status line the terminal showed.
        case info
        /// Something went wrong but rwatch goes on.
        case warning
        /// An error line the terminal showed.
        case error

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Receives every message; called on the thread that logged it, so it
    /// must be quick and thread-safe.
    public typealias Sink = @Sendable (Level, String) -> Void

    private static let enabled = Atomic<Bool>(false)
    private static let sink = Locked<Sink?>(nil)

    /// Sends every later message to `sink` (nil: back to silence).
    public static func install(_ sink: Sink?) {
        self.sink.withLock { $0 = sink }
        enabled.store(sink != nil, ordering: .releasing)
    }

    /// True while a sink is installed: lets a caller skip gathering what a
    /// message would say.
    public static var isEnabled: Bool { enabled.load(ordering: .acquiring) }

    /// Why something happened; shown under `-v`.
    public static func verbose(_ message: @autoclosure () -> String) {
        log(.verbose, message())
    }

    /// A message at `level`.
    public static func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard isEnabled, let sink = sink.withLock({ $0 }) else { return }
        sink(level, Quoted.line(message()))
    }
}
