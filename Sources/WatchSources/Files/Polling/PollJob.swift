import SystemPackage

/// The thin side of one watched root's polling: its `PollMachine` (which
/// decides), and what the machine does not hold: the job's numbers, its
/// interval and when its next pass is due, the rule files outside the tree
/// (`FollowedFiles`, `stat`-ed before each pass), the gate that the first
/// pass opens, the sink its changes go to, and the client's
/// `TrackedFilesRefresh`, which it tells when a pass sees a rule file or
/// git's index change and whose answers it takes. It reads the clocks,
/// runs a pass through the live file system and carries out the
/// machine's actions. Made on the reader thread, then touched only by
/// the poll thread (`PollScanner`); it sends the reader nothing.
final class PollJob: @unchecked Sendable {
    // Safety: handed over through `PollScanner`'s locked command queue; only
    // the poll thread touches it (and its machine) afterwards.

    let id: Int
    let rootIndex: Int
    let interval: Duration
    let machine: PollMachine
    /// For a root polled whole, the filter's rule files outside the tree:
    /// checked before each pass, so that a rule written before a change is
    /// applied to it (inotify, for the rest, keeps order by itself).
    var followed: FollowedFiles
    /// When the next pass is due (CLOCK_MONOTONIC, nanoseconds).
    var nextDue: UInt64 = 0
    /// Released once the first pass has taken the baseline.
    var gate: ArmGate?
    /// Where its changes go: the subscription's sink, shared with the inotify reader.
    let sink: EventSink
    /// What git tracks in the client's repositories (nil: not followed).
    let tracked: TrackedFilesRefresh?
    /// Its subscription to `tracked`, while it runs.
    private var trackedSubscription: Int?

    /// `filter` holds what git tracked when the reader made it; `tracked`
    /// brings what git says after (from `startFollowingTracked` on).
    init(id: Int, rootIndex: Int, rootPath: FilePath, interval: Duration, filter: PathFilter,
         followed: FollowedFiles = FollowedFiles([]), subtrees: [PollMachine.Subtree], gate: ArmGate?,
         sink: EventSink, coalescesSaves: Bool = true, onRootDeleted: RootDeletion = .fail, tracked: TrackedFilesRefresh? = nil)
    {
        self.id = id
        self.rootIndex = rootIndex
        self.tracked = tracked
        self.interval = interval
        self.followed = followed
        self.gate = gate
        self.sink = sink
        machine = PollMachine(rootPath: rootPath, filter: filter, subtrees: subtrees, coalescesSaves: coalescesSaves,
                              onRootDeleted: onRootDeleted)
    }

    /// Scans every subtree once and hands out what changed, each
    /// directory's changes as soon as it is scanned.
    func pass() {
        let system = LivePollSystem()
        machine.beginPass(wall: Clocks.wall(), ruleFilesChanged: followed.isEmpty ? [] : followed.changed())
        while let actions = machine.step(system, now: Clocks.monotonic()) { perform(actions) }
        perform(machine.endPass(system, now: Clocks.monotonic()))
        if let gate {
            self.gate = nil
            gate.release()
        }
    }

    private func perform(_ actions: [PollMachine.Action]) {
        // The new files held now, before what this step delivers (`NewFileHolds`).
        NewFileHolds.live.publish(machine.newFilesDue, for: sink, job: id)
        for action in actions {
            switch action {
            case .send(let events):
                sink.send(events)
            case .fail(let error):
                sink.fail(error)
            case .rulesChanged:
                tracked?.mayHaveChanged()
            }
        }
    }

    // MARK: What git tracks

    /// Takes what git tracks from `tracked` (as the job starts, on the
    /// poll thread): the answer given since the reader made the job at
    /// once, each later one as a command (`PollScanner.Command.replaceTracked`),
    /// so the machine is only ever touched on the poll thread.
    func startFollowingTracked() {
        guard let tracked, trackedSubscription == nil, machine.filter.gitDirectory != nil else { return }
        let top = machine.filter.top
        let id = self.id
        let (subscription, latest) = tracked.subscribe { found in
            if let files = found[top] { PollScanner.shared.submit(.replaceTracked(job: id, files)) }
        }
        trackedSubscription = subscription
        if let files = latest?[top] { machine.replaceTracked(files) }
    }

    /// Stops taking what git tracks (the job stops).
    func stopFollowingTracked() {
        guard let trackedSubscription else { return }
        self.trackedSubscription = nil
        tracked?.unsubscribe(trackedSubscription)
    }
}
