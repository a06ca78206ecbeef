import Signals
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Child processes as signals.
public enum ProcessSource {
    /// Runs a command for each subscription and reports what it does.
    ///
    ///     ProcessSource.run(["make", "-j4"])          // started, stdout…, exited
    ///     ProcessSource.run(["ls $DIR"], options: ProcessOptions(shell: "/bin/sh"))
    ///
    /// Cold: each subscription spawns the command (with `posix_spawn`) as the
    /// leader of its own process group, standard input from `/dev/null`.
    /// Events: `started(pid)`, then output lines, then `exited(status)` (the
    /// leader's status) once every member of the group is gone and the output
    /// is read; then completion. Members the leader leaves behind get the
    /// stop sequence at once, so nothing outlives the run.
    ///
    /// Two ways to stop a run, both ending the whole group, grandchildren
    /// included (the stop signal and SIGCONT, the stop timeout, SIGKILL):
    /// `handle.stop()` keeps the events coming and still sends `exited`
    /// (with `handle.isStopped` true); disposing the subscription sends
    /// nothing more. Neither blocks; `handle.waitUntilGone()` and
    /// `ProcessSupervisor.stopAll()` wait for the group to be gone.
    ///
    /// A command that cannot start (not found, not executable, bad working
    /// directory) gives an error event, a `ProcessError` naming it.
    public static func run(_ arguments: [String], options: ProcessOptions = ProcessOptions(), handle: ProcessHandle? = nil) -> Signal<ProcessEvent> {
        run(arguments.map { CommandWord($0) }, options: options, handle: handle)
            .described("ProcessSource.run", [SignalNode.list(arguments)])
    }

    /// `run(_:options:handle:)` for a command whose words are bytes, such as
    /// changed paths that need not be UTF-8: the child gets them exactly.
    ///
    ///     ProcessSource.run(["wc", "-l", .path(event.path)])
    ///
    /// (Disfavoured, so that `run([])` and lists of string literals keep
    /// meaning the `[String]` form.)
    @_disfavoredOverload
    public static func run(_ arguments: [CommandWord], options: ProcessOptions = ProcessOptions(), handle: ProcessHandle? = nil) -> Signal<ProcessEvent> {
        Signal.serial { observer in
            let wake: WakePipe
            do throws(GNUFunctions.PipeFailure) {
                wake = try WakePipe()
            } catch {
                let command = ProcessLauncher.argv(arguments, options).first?.text ?? ""
                observer.sendError(ProcessError(command: command, reason: .spawnFailed(error.errno), detail: Errno(rawValue: error.errno).description))
                return ActionDisposable()
            }
            let started: (group: ProcessGroup, child: ProcessLauncher.Child)
            do {
                started = try ProcessGroup.start(arguments, options: options, handle: handle) { _ in wake.wake() }
            } catch {
                observer.sendError(error)
                return ActionDisposable()
            }
            let (group, child) = started
            let reader = OutputReader(observer: observer, group: group, stdout: child.stdout, stderr: child.stderr, wake: wake)
            observer.sendNext(.started(pid: group.id))
            guard reader.start() else {
                // Out of threads: nobody would read its output. Stop it and say so.
                for fd in [child.stdout, child.stderr] where fd >= 0 { close(fd) }
                group.stop()
                let command = ProcessLauncher.argv(arguments, options).first?.text ?? ""
                observer.sendError(ProcessError(command: command, reason: .spawnFailed(EAGAIN), detail: "no thread available to read its output"))
                return ActionDisposable()
            }
            return ActionDisposable {
                reader.cancel()
                group.stop()
            }
        }
    }
}
