import Signals
#if canImport(Glibc)
import Glibc
#endif

/// Child processes as signals.
public enum ProcessSource {
    /// Runs a command for each subscription and reports what it does.
    ///
    ///     ProcessSource.run(["make", "-j4"])          // started, stdout…, exited
    ///     ProcessSource.run(["ls $DIR"], options: ProcessOptions(shell: "/bin/sh"))
    ///
    /// Cold: each subscription spawns the command (with `posix_spawn`) as the
    /// leader of its own process group, standard input from `/dev/null`.
    /// Events: `started(pid)`, then output lines, then `exited(status)` once
    /// the leader has exited and its output is read; then completion.
    ///
    /// Disposing stops the whole group, grandchildren included: the stop
    /// signal, the grace period, then SIGKILL, and the leader is reaped. The
    /// same happens to what is left of the group after the leader exits on
    /// its own, so nothing outlives the subscription. The disposer never
    /// blocks; `ProcessSupervisor.stopAll()` waits for the reaping.
    ///
    /// A command that cannot start (not found, not executable, bad working
    /// directory) gives an error event, a `ProcessError` naming it.
    public static func run(_ arguments: [String], options: ProcessOptions = ProcessOptions()) -> Signal<ProcessEvent> {
        Signal.serial { observer in
            let wake: WakePipe
            let child: ProcessLauncher.Child
            do throws(GNUFunctions.PipeFailure) {
                wake = try WakePipe()
            } catch {
                let command = ProcessLauncher.argv(arguments, options).first ?? ""
                observer.sendError(ProcessError(command: command, reason: .spawnFailed(error.errno), detail: ExecutableLookup.errorText(error.errno)))
                return ActionDisposable()
            }
            guard ProcessSupervisor.beginSpawn() else {
                let command = ProcessLauncher.argv(arguments, options).first ?? ""
                observer.sendError(ProcessError(command: command, reason: .spawnFailed(ECANCELED), detail: "rwatch is stopping"))
                return ActionDisposable()
            }
            do {
                child = try ProcessLauncher.spawn(arguments, options: options)
            } catch {
                ProcessSupervisor.endSpawn()
                observer.sendError(error)
                return ActionDisposable()
            }
            let group = ProcessGroup(pid: child.pid, stopSignal: options.stopSignal, gracePeriod: options.gracePeriod) {
                wake.wake()
            }
            ProcessSupervisor.register(group)
            let reader = OutputReader(observer: observer, group: group, stdout: child.stdout, stderr: child.stderr, wake: wake)
            guard group.startWaiting() else {
                return fail(group, reader, child, observer, command: ProcessLauncher.argv(arguments, options)[0])
            }
            observer.sendNext(.started(pid: child.pid))
            guard reader.start() else {
                return fail(group, reader, child, observer, command: ProcessLauncher.argv(arguments, options)[0])
            }
            return ActionDisposable {
                reader.cancel()
                group.stop()
            }
        }
    }

    /// Out of threads: stop what was spawned and report it. The reader never
    /// ran, so its pipes are closed here.
    private static func fail(
        _ group: ProcessGroup, _ reader: OutputReader, _ child: ProcessLauncher.Child,
        _ observer: Observer<ProcessEvent>, command: String
    ) -> any Disposable {
        reader.cancel()
        for fd in [child.stdout, child.stderr] where fd >= 0 { close(fd) }
        group.stop()
        observer.sendError(ProcessError(command: command, reason: .spawnFailed(EAGAIN), detail: "no thread available to watch it"))
        return ActionDisposable()
    }
}
