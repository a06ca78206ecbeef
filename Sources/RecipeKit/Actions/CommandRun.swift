/// One run of a `run` action: one command started for a trigger, from its
/// start until its process group is gone. It holds what the run needs to
/// act (the command, its handle, its subscription, its timers); whether it
/// runs, is stopping or is over is `RunMachine`'s to say. (A handle
/// reaches every group attached to it.)
final class CommandRun<Trigger: RunTrigger>: Sendable {
    /// The trigger of the set the run belongs to.
    let trigger: Trigger
    /// The command it runs, and the changed paths it is for (with `{}` or
    /// `{+}`; empty otherwise).
    let invocation: CommandTemplate.Invocation
    /// When it started (the world's scheduler time), for its duration.
    let began: Duration
    /// Stops and signals its process group.
    let handle: any CommandHandle
    /// Its events (and its events file, which goes with them).
    let subscription = SerialDisposable()
    /// Its `RunOptions.timeout` timer and the slow stop's status line.
    let timers = CompositeDisposable()

    init(_ trigger: Trigger, invocation: CommandTemplate.Invocation, handle: any CommandHandle = ProcessHandle(), at now: Duration = .zero) {
        self.trigger = trigger
        self.invocation = invocation
        self.handle = handle
        began = now
    }

    /// The changes the run is about: the trigger's, or with `{}`/`{+}`
    /// only those of the paths it is for (`RWATCH_PATHS` and friends).
    var changes: ChangeBatch? {
        guard !invocation.paths.isEmpty, let all = trigger.changes else { return trigger.changes }
        let mine = Set(invocation.paths)
        return ChangeBatch(all.events.filter { mine.contains($0.path) })
    }
}
