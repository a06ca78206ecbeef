import SystemPackage

/// The thin side of one watched root's polling: its `PollMachine` (which
/// decides), and what the machine does not hold: the job's numbers, its
/// interval and when its next pass is due, the rule files outside the tree
/// (`FollowedFiles`, `stat`-ed before each pass), the gate that the first
/// pass opens, and the sink its changes go to. It reads the clocks, runs
/// a pass through the live file system and carries out the machine's
/// actions. Made on the reader thread, then touched only by the poll
/// thread (`PollScanner`).
final class PollJob: @unchecked Sendable {
    // Safety: handed over through `PollScanner`'s locked command queue; only
    // the poll thread touches it (and its machine) afterwards.

    let id: Int
    /// The number of the inotify reader whose client it polls for.
    let reader: Int
    let clientID: Int
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

    init(id: Int, reader: Int = 0, clientID: Int, rootIndex: Int, rootPath: FilePath, interval: Duration, filter: PathFilter,
         followed: FollowedFiles = FollowedFiles([]), subtrees: [PollMachine.Subtree], gate: ArmGate?,
         sink: EventSink, coalescesSaves: Bool = true, onRootDeleted: RootDeletion = .fail)
    {
        self.id = id
        self.reader = reader
        self.clientID = clientID
        self.rootIndex = rootIndex
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
                InotifyReader.running(reader)?.pollRulesChanged(client: clientID, job: id)
            }
        }
    }
}
