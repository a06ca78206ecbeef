import Glibc
import SystemPackage

/// The reader thread: it waits in `poll(2)` on the inotify descriptor, its
/// wake-up pipe and (while a client chooses backends by mount)
/// `/proc/self/mountinfo`; reads what is there; hands it to the
/// `ReaderMachine`, and carries out the machine's actions. It decides
/// nothing itself. Created and used on the reader thread only. `System`
/// is `LiveReaderSystem`, or `SeamedReaderSystem` for a reader a test gave
/// `ReaderSeams`.
final class ReaderLoop<System: LoopSystem> {
    let reader: InotifyReader
    var machine: ReaderMachine<System>
    /// Where records are read from the inotify descriptor.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)

    init(reader: InotifyReader, system: System) {
        self.reader = reader
        machine = ReaderMachine(system: system, now: .now(), reader: reader.number)
    }

    deinit {
        readBuffer.deallocate()
    }

    func run() {
        openInstance()
        var commandsPending = true
        while true {
            if commandsPending {
                for command in reader.takeCommands() { execute(command) }
            }
            if machine.clients.isEmpty {
                // The inotify instance stays open, empty (one fd): closed,
                // another process could take the last of the user's
                // instances (`fs.inotify.max_user_instances`, 128 by
                // default) and the next watch would be polled, and polling
                // cannot see a same-size rewrite within one timestamp tick.
                // Only an instance with watches left over is closed, to start
                // clean; a dedicated reader's always is (it is its own).
                if machine.table.count > 0 || reader.dedicated { closeInstance() }
                machine.system.stopFollowingMounts()
                reader.publish(watchCount: 0)
                if reader.finishIfIdle() { return }
                openInstance()
                commandsPending = true
                continue
            }
            machine.flushPolling()
            perform(machine.takeActions())
            reader.publish(watchCount: machine.table.count)
            let (commands, mountsMoved) = wait()
            commandsPending = commands
            drain()
            if mountsMoved { perform(machine.mountsChanged(machine.system.mounts())) }
            perform(machine.deadlinePassed(at: .now()))
        }
    }

    private func openInstance() {
        do {
            machine.system.descriptor = try reader.dedicated ? InotifyInstance.openUnshared() : InotifyInstance.open()
            reader.publish(descriptor: machine.system.descriptor)
            machine.instanceOpened(nil)
        } catch {
            machine.system.descriptor = -1
            reader.publish(descriptor: -1)
            machine.instanceOpened(error, instanceLimit: InotifyInstance.maxUserInstances)
        }
    }

    private func closeInstance() {
        reader.publish(descriptor: -1)
        if reader.dedicated {
            if machine.system.descriptor >= 0 { _ = close(machine.system.descriptor) }
        } else {
            InotifyInstance.close()
        }
        machine.system.descriptor = -1
        machine.instanceClosed()
    }

    // MARK: Commands

    private func execute(_ command: InotifyReader.Command) {
        switch command {
        case .add(let client, let armed):
            // Before any git run can start (the machine's, or a poll job's).
            followTracked(client)
            perform(machine.add(client, gate: armed))
            // What the start reported reaches the subscriber before `subscribe` returns.
            if let armed { client.sink.whenDelivered { armed.release() } }
        case .remove(let id):
            // Read what is queued first: IN_IGNORED records say which watches
            // the kernel already dropped, so they are not removed twice.
            drain()
            perform(machine.remove(id))
        case .tracked(let client, let found):
            perform(machine.learnedTracked(client, found))
        case .barrier(let done):
            drain()
            afterDelivery { done.signal() }
        }
    }

    /// Runs `body` once every subscriber has been delivered what was sent
    /// to it so far (from this thread or the poller's).
    private func afterDelivery(_ body: @escaping @Sendable () -> Void) {
        let gate = ArmGate()
        for sink in machine.sinks {
            gate.hold()
            sink.whenDelivered { gate.release() }
        }
        gate.release()
        gate.whenOpen(body)
    }

    /// Carries out what the machine decided.
    private func perform(_ actions: [ReaderMachine<System>.Action]) {
        // The new files each subscription holds now, before what this step
        // delivers: a batch that gets an edited file sees that a new file
        // of the same save is held.
        for client in machine.clients {
            NewFileHolds.live.publish(client.coalescer.newFilesDue, for: client.sink)
        }
        for action in actions {
            switch action {
            case .send(let events, let sink): sink.send(events)
            case .fail(let error, let sink): sink.fail(error)
            case .announce(let notice): FileWatcher.announce(notice)
            case .announceWatchHolders(let path, let line): FileWatcher.announceWatchHolders(about: path, line: line)
            case .verbose(let line): Diagnostics.verbose(line)
            case .poll(let command): PollScanner.shared.submit(command)
            case .trackedMayHaveChanged(let refresh): refresh.mayHaveChanged()
            case .stopTracked(let refresh): refresh.stop()
            }
        }
    }

    /// Subscribes this reader to what git tracks for `client`: each
    /// answer comes back as a command (`learnedTracked`), on git's
    /// thread. Subscribed before the client is armed, no answer is
    /// missed; the reader's subscription ends with the refresh
    /// (`Action.stopTracked`, when the client goes).
    private func followTracked(_ client: ReaderClient) {
        let reader = self.reader
        let id = client.id
        _ = client.trackedRefresh.subscribe { found in reader.learnedTracked(client: id, found) }
    }

    // MARK: Reading

    /// Blocks until inotify has something, a command arrives, a mount comes
    /// or goes, or the machine's next deadline; says which of the first two.
    private func wait() -> (commands: Bool, mountsMoved: Bool) {
        var timeout: Int32 = -1
        if let next = machine.nextDeadline {
            timeout = Int32(max(0, min(1000, (next - Clocks.monotonic()) * 1000 + 1)))
        }
        if machine.remembersScanned { timeout = timeout < 0 ? 200 : min(timeout, 200) }
        var fds = [pollfd(fd: reader.wakeFD, events: Int16(POLLIN), revents: 0)]
        if machine.system.descriptor >= 0 { fds.append(pollfd(fd: machine.system.descriptor, events: Int16(POLLIN), revents: 0)) }
        let mountWatch = machine.system.mountWatch
        if mountWatch >= 0 { fds.append(pollfd(fd: mountWatch, events: Int16(POLLPRI), revents: 0)) }
        // Caught up: every record read is delivered (`perform` sends at
        // once), and no rename half waits for its other.
        let caughtUp = machine.system.descriptor >= 0 && machine.pendingMoves.isEmpty
        if caughtUp { reader.publishIdle(machine.system.descriptor) }
        let ready = poll(&fds, nfds_t(fds.count), timeout)
        if caughtUp { reader.publishIdle(-1) }
        let mountsMoved = mountWatch >= 0 && fds[fds.count - 1].revents & Int16(POLLPRI | POLLERR) != 0
        if ready == 0 { machine.quiet() }
        return (ready < 0 || fds[0].revents != 0, mountsMoved)
    }

    /// Reads and hands over the records queued on the inotify descriptor
    /// when it is called (`FIONREAD`), not those that keep coming while it
    /// reads: one watch's writer faster than the reader must not keep the
    /// thread from its commands (another client's watch, a sync's
    /// barrier) for as long as it writes. A rename's first half among them
    /// is read on to its second (the kernel queues it next), or until the
    /// machine takes it for a move out. Later records are the next turn's.
    /// A queue found empty lets the machine settle: a rename half read
    /// alone waits a moment for its other.
    private func drain() {
        let descriptor = machine.system.descriptor
        var unread = InotifyInstance.queuedBytes(descriptor)
        var halves: Set<UInt32>? = nil
        while true {
            let (records, bytes) = descriptor < 0 ? ([], 0) : read(descriptor)
            guard records.isEmpty else {
                perform(machine.read(records, at: .now()))
                unread -= bytes
                guard unread <= 0 else { continue }
                let awaited = halves ?? Set(machine.pendingMoves.map(\.cookie))
                halves = awaited
                if machine.pendingMoves.contains(where: { awaited.contains($0.cookie) }) { continue }
                // Empty now: settle (the next read finds nothing).
                if InotifyInstance.queuedBytes(descriptor) > 0 { return }
                continue
            }
            let (state, actions) = machine.queueEmpty(at: .now())
            perform(actions)
            guard case .waitUntil(let ends) = state, descriptor >= 0 else { return }
            var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, Int32(max(0, (ends - Clocks.monotonic()) * 1000).rounded(.up)))
        }
    }

    private func read(_ descriptor: Int32) -> (records: [InotifyRecord], bytes: Int) {
        let table = machine.table
        return machine.system.read(descriptor, into: readBuffer) { wd in table.node(wd: wd).map { table.path(of: $0) } }
    }
}
