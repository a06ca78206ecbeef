import Signals

/// The new files rwatch's file watchers hold right now for the save window
/// (`SaveCoalescer`'s `fresh`: a file made anew waits 200 ms in case it was
/// a temporary file), for `batched`: a batch that would close while one is
/// held waits for it, so that one save of several files (an edited file
/// and a new one, saved together) is one batch, not two.
///
/// The readers publish, per subscription, when its last held new file is
/// due; nothing is published for a file that needs no wait. Read from any
/// thread.
public final class NewFileHolds: Sendable {
    /// The holds of the watchers of the world signals are built in
    /// (`SourceWorld.current`): the process's watchers when live, a
    /// recipe test's virtual tree under `RecipeTesting`.
    public static var shared: NewFileHolds { SourceWorld.current.newFileHolds }

    /// The holds of every kernel watcher of this process (`SourceWorld.live`).
    package static let live = NewFileHolds()

    /// Per subscription (its sink) and source (0: the inotify reader or
    /// the service's client; a poll job's number + 1), when its last held
    /// new file is due (monotonic seconds).
    private let due = Locked<[Source: Double]>([:])

    private struct Source: Hashable {
        var sink: ObjectIdentifier
        var job: Int
    }

    /// The clock `due` is on (monotonic seconds).
    private let clock: @Sendable () -> Double

    /// An empty set of holds (`shared` is the watchers').
    public init() {
        clock = Clocks.monotonic
    }

    /// An empty set of holds on `clock` (seconds): a virtual tree's.
    package init(clock: @escaping @Sendable () -> Double) {
        self.clock = clock
    }

    /// How long until every new file held now is released (or gone), with
    /// a little slack for its delivery to reach the batch; nil when none
    /// is held.
    public func remaining() -> Duration? {
        let now = clock()
        let latest = due.withLock { due -> Double? in
            due = due.filter { $0.value > now }
            return due.values.max()
        }
        guard let latest else { return nil }
        return .nanoseconds(Int64((latest - now + Self.slack) * 1e9))
    }

    /// Slack for the held file's events to reach the batch once due.
    static let slack = 0.02

    /// `sink`'s subscription holds new files until `until` (nil: none), as
    /// far as the poll job `job` (nil: the reader or the service) knows.
    package func publish(_ until: Double?, for sink: AnyObject, job: Int? = nil) {
        let key = Source(sink: ObjectIdentifier(sink), job: job.map { $0 + 1 } ?? 0)
        due.withLock { due in
            if due[key] != until { due[key] = until }
        }
    }
}
