/// What starts a run's command and controls it while it runs
/// (`RecipeWorld.commands`): real process groups in the live world
/// (`ProcessGroup`, through `ProcessSource`), scripted commands in a
/// recipe's tests.
package protocol CommandLauncher: Sendable {
    /// A handle for a run about to start: it may be stopped before its
    /// command exists (the stop then reaches it as it starts).
    func makeHandle() -> any CommandHandle
    /// Starts `words` with `options` under `handle`, for `changes` (what
    /// `RWATCH_PATHS` and the events file tell the command): `started`,
    /// output lines (with `captureOutput`), then `exited` once the whole
    /// group is gone; an error when it could not start.
    func run(_ words: [CommandWord], options: ProcessOptions, handle: any CommandHandle, changes: ChangeBatch?) -> Signal<ProcessEvent>
}

/// Stops and signals one run's command (`ProcessHandle` in the live world).
package protocol CommandHandle: AnyObject, Sendable {
    /// Sends the stop signal, then SIGKILL after the stop timeout.
    func stop()
    /// Sends `number` to the command's group.
    func send(_ number: Int32)
    /// Calls `body` once when a stop begins, whoever asked for it.
    func onStopping(_ body: @escaping @Sendable () -> Void)
    /// Returns once the command's whole group is gone.
    func waitUntilGone()
}

extension ProcessHandle: CommandHandle {}

/// The machine's commands: each run a process group of its own.
struct LiveCommandLauncher: CommandLauncher {
    func makeHandle() -> any CommandHandle {
        ProcessHandle()
    }

    func run(_ words: [CommandWord], options: ProcessOptions, handle: any CommandHandle, changes: ChangeBatch?) -> Signal<ProcessEvent> {
        // The live world only ever makes `ProcessHandle`s (`makeHandle`).
        ProcessSource.run(words, options: options, handle: handle as? ProcessHandle)
    }
}
