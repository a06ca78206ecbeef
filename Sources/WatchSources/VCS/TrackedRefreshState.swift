/// Whether git is being asked what a client's repositories track, and
/// whether something changed since it was asked: the decision part of
/// `TrackedFilesRefresh`, a value, so that it is tested on its own. At
/// most one git run at a time; what changes meanwhile asks for one more,
/// however much changed; once stopped, nothing runs and nothing is
/// delivered.
enum TrackedRefreshState: Equatable, Sendable {
    /// No git run under way.
    case idle
    /// git runs, and nothing changed since it started.
    case running
    /// git runs, and something changed since it started: one more run
    /// follows its answer.
    case again
    /// The client ended.
    case stopped

    /// A rule file or git's index may have changed: true when git is to
    /// be started now.
    mutating func mayHaveChanged() -> Bool {
        switch self {
        case .idle:
            self = .running
            return true
        case .running, .again:
            self = .again
            return false
        case .stopped:
            return false
        }
    }

    /// git answered: whether its answer is delivered (not after `stop`),
    /// and whether git is to run once more (something changed meanwhile).
    mutating func answered() -> (deliver: Bool, runAgain: Bool) {
        switch self {
        case .running, .idle:
            self = .idle
            return (true, false)
        case .again:
            self = .running
            return (true, true)
        case .stopped:
            return (false, false)
        }
    }

    /// git could not be started (no thread for it): nothing runs.
    mutating func notStarted() {
        if self != .stopped { self = .idle }
    }

    /// The client ended: nothing starts or is delivered any more.
    mutating func stop() {
        self = .stopped
    }

    /// Whether the client ended.
    var isStopped: Bool { self == .stopped }
}
