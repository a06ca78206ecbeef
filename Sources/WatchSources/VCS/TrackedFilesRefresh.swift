import SystemPackage
import Signals

/// What git tracks in a watch's repositories, as a source of its own:
/// one per `ReaderClient`. The inotify reader (a rule file or git's index
/// it watches changed) and each of the client's poll jobs (one seen by a
/// pass) tell it that what git tracks may have changed
/// (`mayHaveChanged`); it asks git on a thread of its own and hands the
/// answer to every subscriber: the reader, for its watched parts, and the
/// poll jobs, for theirs. So the reader and the poller never tell each
/// other about it: both feed it, both take from it.
///
/// At most one git run at a time (`TrackedRefreshState` decides); what
/// changes meanwhile asks for one more once it answers. Subscribers are
/// called on git's thread, one answer after the other, never under its
/// lock. After `stop` it starts no git and delivers nothing (an answer
/// already being handed out finishes).
final class TrackedFilesRefresh: Sendable {
    /// What git is asked about one repository: its git directory, the
    /// environment its configuration is read with, and the roots below
    /// its top (relative to it).
    typealias Request = (gitDirectory: FilePath, environment: GitConfiguration.Environment?, within: [FilePath])
    /// What git said, by repository top (a repository git could not
    /// answer for is missing).
    typealias Answer = [FilePath: TrackedFiles]
    /// Takes each answer.
    typealias Subscriber = @Sendable (Answer) -> Void

    /// The repositories git is asked about, by top.
    let requests: [FilePath: Request]
    /// Asks git (`TrackedFiles.load`; a test's stand-in).
    private let load: @Sendable ([FilePath: Request]) -> Answer
    /// Runs its argument on a thread of its own; false when none could
    /// be made (`DetachedThread.start`; a test runs it by hand).
    private let startThread: @Sendable (@escaping @Sendable () -> Void) -> Bool

    private struct State {
        var refresh = TrackedRefreshState.idle
        var subscribers: [(id: Int, deliver: Subscriber)] = []
        var nextID = 0
        /// The last answer delivered, for who subscribes after it.
        var latest: Answer? = nil
    }

    private let state = Locked(State())

    /// A refresh for `requests` (`requests(for:)`): git is asked with
    /// `load`, on the threads `startThread` makes.
    init(requests: [FilePath: Request],
         load: @escaping @Sendable ([FilePath: Request]) -> Answer = { TrackedFilesRefresh.loadAll($0) },
         startThread: @escaping @Sendable (@escaping @Sendable () -> Void) -> Bool = { DetachedThread.start($0) })
    {
        self.requests = requests
        self.load = load
        self.startThread = startThread
    }

    /// What to ask git about each repository holding one of the roots
    /// whose filters are `filters`.
    static func requests(for filters: [PathFilter]) -> [FilePath: Request] {
        var requests: [FilePath: Request] = [:]
        for filter in filters {
            guard let gitDirectory = filter.gitDirectory else { continue }
            requests[filter.top, default: (gitDirectory, filter.gitEnvironment, [])].within.append(filter.prefix)
        }
        return requests
    }

    /// What git says for each of `requests` (`TrackedFiles.load`).
    static func loadAll(_ requests: [FilePath: Request]) -> Answer {
        var found: Answer = [:]
        for (top, request) in requests {
            found[top] = TrackedFiles.load(top: top, gitDirectory: request.gitDirectory, environment: request.environment,
                                           within: request.within)
        }
        return found
    }

    // MARK: Subscribers

    /// Adds `deliver`, called with every answer from now on. Returns its
    /// number (for `unsubscribe`; nil once stopped) and the last answer
    /// given before, if any: the subscriber takes it itself, so that one
    /// made just before an answer came does not start without it.
    func subscribe(_ deliver: @escaping Subscriber) -> (id: Int?, latest: Answer?) {
        state.withLock { state in
            guard !state.refresh.isStopped else { return (nil, nil) }
            state.nextID += 1
            state.subscribers.append((state.nextID, deliver))
            return (state.nextID, state.latest)
        }
    }

    /// Removes subscriber `id`: it is handed no answer that comes after.
    func unsubscribe(_ id: Int) {
        state.withLock { $0.subscribers.removeAll { $0.id == id } }
    }

    // MARK: Asking git

    /// A rule file or git's index may have changed: asks git now, or once
    /// the run under way has answered.
    func mayHaveChanged() {
        guard !requests.isEmpty, state.withLock({ $0.refresh.mayHaveChanged() }) else { return }
        run()
    }

    /// Stops for good: the client ended.
    func stop() {
        state.withLock { state in
            state.refresh.stop()
            state.subscribers.removeAll()
            state.latest = nil
        }
    }

    /// Whether it was stopped.
    var isStopped: Bool { state.withLock { $0.refresh.isStopped } }

    /// Starts git on a thread of its own.
    private func run() {
        let started = startThread { [self] in
            // Stopped while the thread started: git is not asked.
            if isStopped {
                answered([:])
                return
            }
            answered(load(requests))
        }
        if !started { state.withLock { $0.refresh.notStarted() } }
    }

    /// Hands git's answer to every subscriber, then runs git again if
    /// something changed meanwhile.
    private func answered(_ found: Answer) {
        let (runAgain, subscribers) = state.withLock { state -> (Bool, [Subscriber]) in
            let (deliver, runAgain) = state.refresh.answered()
            guard deliver else { return (false, []) }
            state.latest = found
            return (runAgain, state.subscribers.map(\.deliver))
        }
        for deliver in subscribers { deliver(found) }
        if runAgain { run() }
    }
}
