import Dispatch
import Glibc
import Signals
import Synchronization
import SystemPackage

/// A thread that reads inotify for `FileWatcher` subscriptions
/// (`ReaderLoop`, deciding with `ReaderMachine`). Subscriptions and what
/// git says it tracks (`TrackedFilesRefresh`) reach it as commands
/// through a locked queue and a `WakePipe` that wakes its poll; nothing
/// comes from the poller. It runs while at least one client is
/// registered and, when the last leaves, removes every watch and exits.
///
/// `shared` serves every watch of the process (one inotify instance, kept
/// open for the next thread). A dedicated reader (`FileWatcher.Reader`)
/// has an instance of its own, closed when it goes idle: `rwatch serve`
/// gives one to each root, so that a storm in one root never delays a
/// sync or a watch of another (watchman's one instance per root).
final class InotifyReader: Sendable {
    enum Command: Sendable {
        /// Register and arm a client; the gate opens once armed (or failed).
        case add(ReaderClient, ArmGate?)
        case remove(Int)
        /// What git tracks among the paths its rules ignore, by repository
        /// top, for client `client` (its `TrackedFilesRefresh`'s answer).
        case tracked(client: Int, [FilePath: TrackedFiles])
        /// Read what is queued; signal once it is delivered.
        case barrier(DispatchSemaphore)
    }

    /// The process's reader.
    static let shared = InotifyReader(dedicated: false)

    /// Readers whose thread runs now, by number (`running(with:)`).
    private static let running = Locked<[Int: InotifyReader]>([:])
    private static let numbers = Atomic<Int>(1)

    /// This reader's number (`shared`'s is 0); its poll jobs' ids start at
    /// `number << 32`, as the poller serves every reader.
    let number: Int
    /// Whether it has an inotify instance of its own.
    let dedicated: Bool
    /// What a test bends in how its thread watches and reads; nil (always,
    /// outside tests) for none: its thread reads the kernel as it is.
    let seams: ReaderSeams?

    /// Commands for the reader thread, which it starts when needed.
    private let inbox = CommandInbox<Command>(owner: "inotify reader")
    private let nextID = Atomic<Int>(1)
    private let readerThread = Atomic<UInt>(0)
    private let watches = Atomic<Int>(0)
    /// The inotify descriptor while the reader thread waits in `poll`
    /// with every record it read delivered and no rename half held;
    /// -1 otherwise (`isCaughtUp`).
    private let idleDescriptor = Locked<Int32>(-1)
    /// Whether `idleDescriptor` is set: what `waitUntilCaughtUp` spins on
    /// without taking the lock.
    private let idle = Atomic<Bool>(false)
    /// The inotify descriptor while it is open (`hasQueued`).
    private let openDescriptor = Atomic<Int32>(-1)
    /// The descriptor the reader polls for commands.
    var wakeFD: Int32 { inbox.wakeFD }

    /// `seams`, when given, else those a test installed for new readers
    /// (`ReaderSeams.installForNewReaders`), if any.
    init(dedicated: Bool, seams: ReaderSeams? = nil) {
        self.dedicated = dedicated
        number = dedicated ? Self.numbers.wrappingAdd(1, ordering: .relaxed).oldValue : 0
        self.seams = seams ?? ReaderSeams.forNewReader
    }

    /// The readers given `seams` whose thread runs now.
    static func running(with seams: ReaderSeams) -> [InotifyReader] {
        running.withLock { $0.values.filter { $0.seams === seams } }
    }

    /// A fresh client id.
    func makeID() -> Int { nextID.wrappingAdd(1, ordering: .relaxed).oldValue }

    /// How many directories are watched now (for tests and diagnostics).
    var watchCount: Int { watches.load(ordering: .relaxed) }

    /// Whether the reader thread is alive.
    var isRunning: Bool { inbox.isRunning }

    /// Registers `client` and, unless called from the reader thread or the
    /// poll thread (a subscription made inside an event handler: the wait
    /// would be for that very thread), waits until its watches are in place
    /// and its polled parts took their first snapshot, so that changes
    /// made after `subscribe` returns are reported.
    func add(_ client: ReaderClient) {
        let onReader = pthread_self() == readerThread.load(ordering: .acquiring)
        let armed = onReader || PollScanner.shared.isCurrentThread ? nil : ArmGate()
        submit(.add(client, armed))
        armed?.wait()
    }

    /// Hands what git said it tracks to the reader thread (called on
    /// git's thread by the client's `TrackedFilesRefresh`).
    func learnedTracked(client: Int, _ found: [FilePath: TrackedFiles]) {
        submit(.tracked(client: client, found))
    }

    /// Unregisters the client `id`; its watches go (asynchronously).
    func remove(_ id: Int) {
        submit(.remove(id))
    }

    /// Returns once the reader has read, and delivered to every
    /// subscriber, each change the kernel queued before the call; false
    /// if `deadline` came first (the barrier still passes, later, unheard).
    @discardableResult
    func barrier(until deadline: DispatchTime = .distantFuture) -> Bool {
        let done = DispatchSemaphore(value: 0)
        submit(.barrier(done))
        return done.wait(timeout: deadline) == .success
    }

    /// Whether every change the kernel queued before the call is
    /// delivered already: the reader thread waits in `poll` with all it
    /// read delivered, and nothing is queued. (A new file that a watch
    /// coalescing saves holds back a moment stays held, as after a
    /// barrier; the service's watches hold nothing.) Then a barrier has
    /// nothing to wait for, and a sync spares two thread wake-ups (there
    /// and back). Records are queued before the system call that caused them
    /// returns, so none made before the call can be missing. Deliveries
    /// another thread makes to the same subscribers (the poller's) are
    /// not waited for: the caller waits for those by its own means (a
    /// cookie the poller must see).
    func isCaughtUp() -> Bool {
        idleDescriptor.withLock { descriptor in
            var count: Int32 = 0
            // Under the lock: the reader clears it before it reads, or
            // closes the descriptor.
            return descriptor >= 0 && ioctl(descriptor, UInt(FIONREAD), &count) == 0 && count == 0
        }
    }

    /// `isCaughtUp`, or true once it is within `bound`, spinning on this
    /// thread meanwhile (yielding the processor each turn, without sleep or
    /// wake-up): the reader thread is reading a change made a moment ago
    /// (the client's own, just before its query) and is done within
    /// microseconds, which costs less than the round trip of a barrier.
    /// False at once on a single processor, where the reader would have to
    /// wait for this thread anyway, and when more than a few records wait
    /// (a storm: the reader is not done soon).
    func waitUntilCaughtUp(spinningAtMost bound: Duration) -> Bool {
        if isCaughtUp() { return true }
        guard Self.processors > 1, InotifyInstance.queuedBytes(openDescriptor.load(ordering: .acquiring)) <= 1024 else {
            return false
        }
        let deadline = Clocks.monotonic() + Double(bound.components.attoseconds) / 1e18 + Double(bound.components.seconds)
        while Clocks.monotonic() < deadline {
            if idle.load(ordering: .acquiring), isCaughtUp() { return true }
            // The reader may be waiting for this very processor (the kernel
            // often wakes it where the change was made, beside the client
            // and this thread): give it the turn rather than spin it out.
            sched_yield()
        }
        return false
    }

    private static let processors = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))

    /// Whether records wait in the kernel's queue now: a subscriber called
    /// on the reader's thread learns that more is coming at once (a
    /// storm), and can leave work for later rather than slow the reading.
    /// A hint, taken without a lock: the descriptor may close meanwhile,
    /// and the answer then means nothing.
    func hasQueued() -> Bool {
        InotifyInstance.queuedBytes(openDescriptor.load(ordering: .acquiring)) > 0
    }

    private func submit(_ command: Command) {
        inbox.submit(command, start: spawn)
    }

    // MARK: Reader thread side

    /// The pending commands; clears the wake-up fd.
    func takeCommands() -> [Command] { inbox.take() }

    /// Called with no clients left: stops the thread unless commands
    /// arrived meanwhile.
    func finishIfIdle() -> Bool { inbox.finishIfIdle() }

    /// The reader thread is about to wait in `poll` with all it read
    /// delivered (`descriptor`, its inotify descriptor), or has stopped
    /// waiting (-1).
    func publishIdle(_ descriptor: Int32) {
        idleDescriptor.withLock { $0 = descriptor }
        idle.store(descriptor >= 0, ordering: .releasing)
    }

    /// The reader thread opened its inotify instance, or closed it (-1).
    func publish(descriptor: Int32) {
        openDescriptor.store(descriptor, ordering: .releasing)
    }

    func publish(watchCount: Int) {
        watches.store(watchCount, ordering: .relaxed)
    }

    private func spawn() {
        Self.running.withLock { $0[number] = self }
        // The system's default stack.
        let started = DetachedThread.start(stackSize: nil, name: FileWatcher.readerThreadName) { [self] in
            let me = pthread_self()
            readerThread.store(me, ordering: .releasing)
            // The one look at a test's seams: which loop this thread runs.
            if let seams {
                ReaderLoop(reader: self, system: SeamedReaderSystem(seams: seams)).run()
            } else {
                ReaderLoop(reader: self, system: LiveReaderSystem()).run()
            }
            // Unless a command came since, started a thread again, and
            // stored this reader again: then it is still running.
            Self.running.withLock { running in
                if !inbox.isRunning, running[number] === self { running[number] = nil }
            }
            // Forget this thread's id before it ends: a later thread may be
            // given the same id, and `add` from it must still wait to be
            // armed. (A newer reader may have stored its own id already.)
            _ = readerThread.compareExchange(expected: me, desired: 0, ordering: .acquiringAndReleasing)
        }
        precondition(started, "rwatch: cannot start the inotify reader thread")
    }
}
