/// What a run action does with an event that arrives while its command is
/// still running (watchexec's `--on-busy-update`).
public enum OnBusy: Sendable, Hashable {
    /// Keep at most one pending run; it carries every path changed while the
    /// command ran and starts when the command exits. The default.
    case queue
    /// Stop the running command's whole process group (stop signal, grace
    /// period, then SIGKILL) and start anew once the old group has exited,
    /// so a server's port is free again.
    case restart
    /// Drop the event.
    case ignore
    /// Send this signal to the running command's process group and drop the
    /// event (e.g. SIGHUP to make a server reload).
    case signal(Int32)
}
