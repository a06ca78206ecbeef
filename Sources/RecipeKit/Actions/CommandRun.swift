/// One run of a `run` action: the command started for one trigger, from
/// its start until its process group is gone. It holds what the run needs
/// to act (its handle, its subscription, its timers); whether it runs, is
/// stopping or is over is `RunMachine`'s to say. (A handle reaches every
/// group attached to it: the processes of one trigger share it, and one
/// stop, a restart's, reaches them all.)
final class CommandRun<Trigger: RunTrigger>: Sendable {
    /// What started it.
    let trigger: Trigger
    /// When it started, for its duration.
    let began = ContinuousClock.now
    /// Stops and signals its process group.
    let handle = ProcessHandle()
    /// Its events (and its events file, which goes with them).
    let subscription = SerialDisposable()
    /// Its `RunOptions.timeout` timer and the slow stop's status line.
    let timers = CompositeDisposable()

    init(_ trigger: Trigger) {
        self.trigger = trigger
    }
}
