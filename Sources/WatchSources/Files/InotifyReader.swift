import Dispatch
import Glibc
import Signals
import Synchronization
import SystemPackage

/// The one thread that owns libinotifytools (process-global, not
/// thread-safe: one static fd, one static buffer) and every `WatchClient`.
/// Subscriptions reach it as commands through a locked queue and a
/// `WakePipe` that wakes its poll, and so do the results of polling passes
/// (made on `PollScanner`'s thread), which it delivers with inotify's
/// events, so that each subscriber sees one stream. It runs while at least
/// one `WatchClient` is registered and, when the last leaves, removes every
/// watch, closes the library and exits.
final class InotifyReader: Sendable {
    enum Command {
        /// Register and arm a client; the gate opens once armed (or failed).
        case add(WatchClient, ArmGate?)
        case remove(Int)
        /// What a poll job of client `client` found.
        case polled(client: Int, job: Int, PollOutput)
        /// What git tracks among the paths its rules ignore, by repository
        /// top, for client `client` (`ReaderLoop.trackedMayHaveChanged`).
        case tracked(client: Int, [FilePath: TrackedFiles])
        /// Tests: opens the gate once the commands before it are done.
        case fence(ArmGate)
        /// Deliver the new files held by the watches of paths at or below
        /// these, then call back (`releaseNew(under:then:)`).
        case releaseNew(under: [FilePath], then: @Sendable () -> Void)
        /// Tests: drop the client's events from now on, as a full queue would.
        case deafen(root: FilePath, DispatchSemaphore)
        /// Tests: read what is queued (dropping it for the deaf client), then
        /// give that client an overflow and its rescan.
        case overflow(root: FilePath, DispatchSemaphore)
        /// Tests: read what is queued, then signal.
        case barrier(DispatchSemaphore)
    }

    /// The process's reader.
    static let shared = InotifyReader()

    /// Commands for the reader thread, which it starts when needed.
    private let inbox = CommandInbox<Command>(owner: "inotify reader")
    private let nextID = Atomic<Int>(1)
    private let readerThread = Atomic<UInt>(0)
    private let watches = Atomic<Int>(0)
    /// The descriptor the reader polls for commands.
    var wakeFD: Int32 { inbox.wakeFD }

    private init() {}

    /// A fresh client id.
    func makeID() -> Int { nextID.wrappingAdd(1, ordering: .relaxed).oldValue }

    /// How many directories are watched now (for tests and diagnostics).
    var watchCount: Int { watches.load(ordering: .relaxed) }

    /// Whether the reader thread is alive.
    var isRunning: Bool { inbox.isRunning }

    /// Registers `client` and, unless called from the reader thread itself
    /// (a subscription made inside an event handler), waits until its
    /// watches are in place, so that changes made after `subscribe` returns
    /// are reported.
    func add(_ client: WatchClient) {
        let onReader = pthread_self() == readerThread.load(ordering: .acquiring)
        let armed = onReader ? nil : ArmGate()
        submit(.add(client, armed))
        armed?.wait()
    }

    /// Tests: opens `gate` once what was submitted before is delivered.
    func fence(_ gate: ArmGate) {
        submit(.fence(gate))
    }

    /// Hands what a poll job found to the reader thread, which delivers it.
    func deliverPolled(client: Int, job: Int, _ output: PollOutput) {
        submit(.polled(client: client, job: job, output))
    }

    /// Delivers the new files that the watches of paths at or below `tops`
    /// hold back (a new file is held a moment in case it is a temporary
    /// one), then calls `then` on the reader thread: a repository
    /// operation that ends wrote them, and they must arrive before its end
    /// does (`vcsState`).
    func releaseNew(under tops: [FilePath], then: @escaping @Sendable () -> Void) {
        submit(.releaseNew(under: tops, then: then))
    }

    /// Hands what git said it tracks to the reader thread.
    func learnedTracked(client: Int, _ found: [FilePath: TrackedFiles]) {
        submit(.tracked(client: client, found))
    }

    /// Unregisters the client `id`; its watches go (asynchronously).
    func remove(_ id: Int) {
        submit(.remove(id))
    }

    /// Tests: makes the clients watching `root` drop events until `injectOverflow(root:)`.
    func deafen(root: FilePath) {
        let done = DispatchSemaphore(value: 0)
        submit(.deafen(root: root, done))
        done.wait()
    }

    /// Tests: gives the clients watching `root` a queue overflow: an
    /// `overflow` event, a rescan, and events for what changed meanwhile.
    func injectOverflow(root: FilePath) {
        let done = DispatchSemaphore(value: 0)
        submit(.overflow(root: root, done))
        done.wait()
    }

    /// Tests: returns once the reader has read and handled every change
    /// made before the call.
    func barrier() {
        let done = DispatchSemaphore(value: 0)
        submit(.barrier(done))
        done.wait()
    }

    private func submit(_ command: Command) {
        inbox.submit(command, start: spawn)
    }

    // MARK: Reader thread side

    /// The pending commands; clears the wake-up fd.
    func takeCommands() -> [Command] { inbox.take() }

    /// Called with no clients left and the library closed: stops the thread
    /// unless commands arrived meanwhile.
    func finishIfIdle() -> Bool { inbox.finishIfIdle() }

    func publish(watchCount: Int) {
        watches.store(watchCount, ordering: .relaxed)
    }

    private func spawn() {
        // The system's default stack: scanning a new tree recurses.
        let started = DetachedThread.start(stackSize: nil, name: FileWatcher.readerThreadName) { [self] in
            let me = pthread_self()
            readerThread.store(me, ordering: .releasing)
            ReaderLoop(reader: self).run()
            // Forget this thread's id before it ends: a later thread may be
            // given the same id, and `add` from it must still wait to be
            // armed. (A newer reader may have stored its own id already.)
            _ = readerThread.compareExchange(expected: me, desired: 0, ordering: .acquiringAndReleasing)
        }
        precondition(started, "rwatch: cannot start the inotify reader thread")
    }
}
