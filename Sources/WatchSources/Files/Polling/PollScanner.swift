import Glibc
import Signals
import Synchronization

/// The thread that polls: every `PollJob` of every subscription, each pass
/// when it is due, so that `stat`-ing a large tree never holds up the
/// inotify reader thread. Jobs arrive and leave as commands through a
/// locked queue and a wake-up pipe; the thread runs while there are jobs.
final class PollScanner: Sendable {
    enum Command: Sendable {
        case start(PollJob)
        case stop(job: Int)
        case add(job: Int, PollMachine.Subtree)
        case remove(job: Int, under: [UInt8])
        case replaceFilter(job: Int, PathFilter)
        /// What git tracks in the job's repository, from the client's
        /// `TrackedFilesRefresh` (the job subscribed to it).
        case replaceTracked(job: Int, TrackedFiles)
        /// Two passes of every job now; the gate opens once what they found
        /// has reached the subscribers.
        case fence(ArmGate)
        /// Tests: the identities of every directory snapshot, to `reply`.
        case inspect(@Sendable (Set<PollTree.Identity>) -> Void)
    }

    /// The process's poller.
    static let shared = PollScanner()

    /// Commands for the poll thread, which it starts when needed.
    private let inbox = CommandInbox<Command>(owner: "poller")
    /// The poll thread's id while it runs (0 otherwise).
    private let pollThread = Atomic<UInt>(0)

    private init() {}

    /// Whether the caller is the poll thread: what it finds reaches
    /// subscribers on it, and a subscriber that subscribes again from its
    /// handler must not wait for a pass that this thread would make.
    var isCurrentThread: Bool { pthread_self() == pollThread.load(ordering: .acquiring) }

    func submit(_ command: Command) {
        inbox.submit(command) {
            let started = DetachedThread.start { [self] in
                let me = pthread_self()
                pollThread.store(me, ordering: .releasing)
                PollLoop(scanner: self).run()
                // A later thread may be given the same id (see `InotifyReader.spawn`).
                _ = pollThread.compareExchange(expected: me, desired: 0, ordering: .acquiringAndReleasing)
            }
            precondition(started, "rwatch: cannot start the polling thread")
        }
    }

    /// Returns once two passes of every job, started after this call, have
    /// been delivered to subscribers, and no new file is still held: what
    /// changed before it has been reported (a new file is announced by the
    /// first pass after the save window since it was found).
    func fence() {
        let gate = ArmGate()
        submit(.fence(gate))
        gate.wait()
    }

    /// Tests: the device and inode of every directory some job holds a
    /// snapshot of (what is polled; ignored directories are not among them).
    func polledDirectories() -> Set<PollTree.Identity> {
        let found = Locked<Set<PollTree.Identity>>([])
        let gate = ArmGate()
        submit(.inspect { identities in
            found.withLock { $0 = identities }
            gate.release()
        })
        gate.wait()
        return found.withLock { $0 }
    }

    // MARK: Poll thread side

    fileprivate var wakeFD: Int32 { inbox.wakeFD }

    fileprivate func takeCommands() -> [Command] { inbox.take() }

    /// With no jobs left: stops the thread unless commands arrived meanwhile.
    fileprivate func finishIfIdle() -> Bool { inbox.finishIfIdle() }
}

/// The poll thread's loop: runs each job's pass when it is due
/// (`PollSchedule` decides when), and waits in `poll(2)` for the next one
/// or a command.
private final class PollLoop {
    let scanner: PollScanner
    var jobs: [PollJob] = []
    var schedule = PollSchedule<ArmGate>()

    init(scanner: PollScanner) {
        self.scanner = scanner
    }

    func run() {
        while true {
            for command in scanner.takeCommands() { execute(command) }
            if jobs.isEmpty {
                // No pass left to wait for.
                for gate in schedule.noJobs() { gate.release() }
                if scanner.finishIfIdle() { return }
                continue
            }
            if schedule.passesEveryJob {
                for job in jobs { job.nextDue = 0 }
            }
            var now = PollLoop.monotonicNow()
            for job in jobs where job.nextDue <= now {
                let started = now
                job.pass()
                now = PollLoop.monotonicNow()
                job.nextDue = PollSchedule<ArmGate>.nextDue(started: started, finished: now, interval: job.interval)
            }
            for gate in schedule.roundEnded(holdsNewFiles: jobs.contains { $0.machine.coalescer.holdsNewFiles }) { afterDelivery(gate) }
            let timeout = PollSchedule<ArmGate>.timeout(now: now, nextDue: jobs.map(\.nextDue).min()!)
            var fds = [pollfd(fd: scanner.wakeFD, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, timeout)
        }
    }

    func execute(_ command: PollScanner.Command) {
        switch command {
        case .start(let job):
            job.nextDue = 0
            job.startFollowingTracked()
            jobs.append(job)
        case .stop(let id):
            if let index = jobs.firstIndex(where: { $0.id == id }) {
                let job = jobs.remove(at: index)
                job.stopFollowingTracked()
                if let gate = job.gate {
                    job.gate = nil
                    gate.release()
                }
            }
        case .add(let id, let subtree):
            guard let job = jobs.first(where: { $0.id == id }) else { return }
            job.machine.add(subtree)
            job.nextDue = 0
        case .remove(let id, let relative):
            jobs.first { $0.id == id }?.machine.remove(under: relative)
        case .replaceFilter(let id, let filter):
            jobs.first { $0.id == id }?.machine.replace(filter)
        case .replaceTracked(let id, let files):
            jobs.first { $0.id == id }?.machine.replaceTracked(files)
        case .fence(let gate):
            if schedule.fence(gate, jobs: jobs.count) { gate.release() }
        case .inspect(let reply):
            var identities: Set<PollTree.Identity> = []
            for job in jobs {
                for directory in job.machine.tree.directories where directory.inode != 0 {
                    identities.insert(.init(device: directory.device, inode: directory.inode))
                }
            }
            reply(identities)
        }
    }

    /// Opens `gate` once every job's subscriber has been delivered what
    /// was sent to it so far.
    func afterDelivery(_ gate: ArmGate) {
        for job in jobs {
            gate.hold()
            job.sink.whenDelivered { gate.release() }
        }
        gate.release()
    }

    static func monotonicNow() -> UInt64 { Clocks.monotonicNanoseconds() }
}
