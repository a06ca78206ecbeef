import Glibc

/// Runs one command per trigger under an `OnBusy` policy and sends a
/// `RunResult` for every run that ends. One instance per subscription of a
/// run action (and `run` shares that subscription, so one per action).
///
/// It owns no process: each run has a `ProcessHandle`, and everything about
/// the child's life (stop signal, grace, SIGKILL, reaping, the group id) is
/// `ProcessGroup`'s. The action reacts to one event, `exited`, which comes
/// once the run's whole group is gone, whether it ended or was stopped.
final class CommandAction<Trigger: RunTrigger>: Sendable {
    /// What the child gets, byte for byte.
    private let words: [CommandWord]
    /// The words as text, for status lines and `RunResult`.
    private let arguments: [String]
    /// The command as status lines show it: bytes that are not UTF-8 as `\xNN`.
    private let shown: String
    private let options: RunOptions
    private let observer: Observer<RunResult>
    /// For the status line of a slow stop, and `RunOptions.timeout`.
    private let scheduler: any Scheduler
    private let state: Locked<State>
    /// The subscription to the keys' commands (`RunControl`), for actions
    /// that start chains.
    private let control = SerialDisposable()

    private struct State {
        var machine: RunMachine<Trigger>
        /// The run started last, until its `exited` has been handled.
        var current: CommandRun?
        /// Set by `dispose`: no run starts and no result is sent after it.
        var disposed = false
        /// `p` was pressed: triggers are held (merged) until resumed.
        var paused = false
        var held: Trigger?
    }

    init(arguments: [CommandWord], policy: OnBusy, options: RunOptions, scheduler: any Scheduler, observer: Observer<RunResult>) {
        words = arguments
        self.arguments = arguments.map(\.text)
        shown = CommandName.display(words: arguments, shell: options.shell)
        self.options = options
        self.scheduler = scheduler
        self.observer = observer
        state = Locked(State(machine: RunMachine(policy: policy)))
        if Trigger.manual != nil {
            control.disposable = RunControl.commands.subscribe(onNext: { [weak self] command in self?.obey(command) })
        }
    }

    func receive(_ trigger: Trigger) {
        let action = state.withLock { state -> (RunMachine<Trigger>.Step, CommandRun?) in
            if state.paused {
                state.held = state.held.map { $0.merging(trigger) } ?? trigger
                return (.none, nil)
            }
            return Self.step(&state) { $0.receive(trigger) }
        }
        if case .stop = action.0 { announcer.restarting(trigger.changes) }
        perform(action)
    }

    /// A key's command: run now (even while paused), pause, resume (the
    /// held triggers run once, merged).
    private func obey(_ command: RunControl.Command) {
        switch command {
        case .runNow:
            guard let manual = Trigger.manual else { return }
            let action = state.withLock { state in Self.step(&state) { $0.receive(manual) } }
            if case .stop = action.0 { announcer.restarting(nil) }
            perform(action)
        case .pause:
            state.withLock { $0.paused = true }
        case .resume:
            let held = state.withLock { state -> Trigger? in
                state.paused = false
                defer { state.held = nil }
                return state.held
            }
            if let held { receive(held) }
        }
    }

    private var announcer: RunAnnouncer { RunAnnouncer(arguments: arguments, command: shown, options: options) }

    /// How long a stop may take before a status line says it is under way.
    static var stopLinePatience: Duration { .milliseconds(500) }

    func complete() {
        perform(state.withLock { state in Self.step(&state) { $0.completed() } })
    }

    /// Stops the running command (its whole process group) and returns once
    /// the group is gone, so that a caller about to exit leaves no child
    /// behind. Nothing is sent after this.
    func dispose() {
        control.dispose()
        let run = state.withLock { state -> CommandRun? in
            state.disposed = true
            return state.current
        }
        guard let run else { return }
        run.timer.dispose()
        run.handle.stop()
        run.handle.waitUntilGone()
        run.subscription.dispose()
    }

    /// Applies a transition; a step that starts a run makes the run's handle
    /// here, under the lock, so a stop that follows at once finds it.
    private static func step(
        _ state: inout State, _ transition: (inout RunMachine<Trigger>) -> RunMachine<Trigger>.Step
    ) -> (RunMachine<Trigger>.Step, CommandRun?) {
        guard !state.disposed else { return (.none, nil) }
        let step = transition(&state.machine)
        if case .start = step { state.current = CommandRun() }
        return (step, state.current)
    }

    private func perform(_ action: (RunMachine<Trigger>.Step, CommandRun?)) {
        let (step, run) = action
        switch step {
        case .none:
            break
        case .start(let trigger):
            if let run { start(run, trigger) }
        case .stop:
            run?.handle.stop()
        case .signal(let number):
            run?.handle.send(number)
        case .complete:
            observer.sendCompleted()
        }
    }

    private func start(_ run: CommandRun, _ trigger: Trigger) {
        let environment = RunEnvironment(trigger.changes)
        announcer.starting(trigger.changes)
        var process = ProcessOptions()
        process.environment = options.environment
        process.environmentBytes = environment.variables
        process.workingDirectory = options.workingDirectory
        process.shell = options.shell
        process.stopSignal = options.stopSignal
        process.stopTimeout = options.stopTimeout
        process.captureOutput = options.outputPrefix != nil
        process.interactive = options.interactive
        let began = ContinuousClock.now
        // A stop that takes a while (a child ignoring the stop signal) says
        // so in one line, instead of leaving rwatch silent for the grace period.
        let announcer = announcer
        let patience = Self.stopLinePatience
        // The run holds its handle and its subscription, which hold these
        // closures: they take the run weakly, or every finished run would
        // stay in memory (`state.current` keeps it alive until `finish`).
        run.handle.onStopping { [scheduler, weak run] in
            guard let run else { return }
            run.stopLine.disposable = scheduler.schedule(after: patience) { [weak run] in
                guard let run, !run.ended.withLock({ $0 }) else { return }
                announcer.stopping(after: patience)
            }
        }
        let events = ProcessSource.run(words, options: process, handle: run.handle).subscribe { [self, weak run] event in
            guard let run else { return }
            switch event {
            case .next(.started):
                break
            case .next(.stdout(let line)):
                Terminal.output(line, prefix: options.outputPrefix ?? "", toStandardError: false)
            case .next(.stderr(let line)):
                Terminal.output(line, prefix: options.outputPrefix ?? "", toStandardError: true)
            case .next(.exited(let status)):
                environment.remove()
                finish(run, trigger, status, ContinuousClock.now - began)
            case .error(let error):
                environment.remove()
                Terminal.error("\(error)")
                if ShellHint.applies(to: error, arguments: arguments, shell: options.shell) { Terminal.status(ShellHint.text) }
                finish(run, trigger, .exited(127), ContinuousClock.now - began)
            case .completed:
                break
            }
        }
        // A run disposed before it exits (the action's subscription ends)
        // sends no `exited`: its events file goes with the subscription.
        run.subscription.disposable = CompositeDisposable([events, ActionDisposable { environment.remove() }])
        if let timeout = options.timeout {
            // Stopped through its handle, like any other stop: `exited`
            // still comes once the whole group is gone.
            run.timer.disposable = scheduler.schedule(after: timeout) { [weak run] in
                guard let run else { return }
                run.timedOut.withLock { $0 = true }
                run.handle.stop()
            }
        }
    }

    /// The run's group is gone: report it and go on with the machine.
    private func finish(_ run: CommandRun, _ trigger: Trigger, _ status: ExitStatus, _ duration: Duration) {
        let live = state.withLock { state -> Bool in
            guard !state.disposed, state.current === run else { return false }
            state.current = nil
            return true
        }
        run.timer.dispose()
        run.ended.withLock { $0 = true }
        run.stopLine.dispose()
        guard live else { return }
        let timedOut = run.timedOut.withLock { $0 }
        announcer.finished(status, duration, timedOut: timedOut, stopped: run.handle.isStopped)
        let name = options.name ?? shown
        let step = RunResult.Step(name: name, arguments: arguments, status: status, duration: duration)
        observer.sendNext(RunResult(steps: trigger.steps + [step], batch: trigger.changes))
        perform(state.withLock { state in Self.step(&state) { $0.exited() } })
    }
}

/// One run of a `CommandAction`: the handle that stops it, the
/// subscription to its events, and its `RunOptions.timeout` timer.
final class CommandRun: Sendable {
    let handle = ProcessHandle()
    let subscription = SerialDisposable()
    let timer = SerialDisposable()
    /// Set when the timeout stopped the run.
    let timedOut = Locked(false)
    /// Set once its `exited` has been handled.
    let ended = Locked(false)
    /// The timer of the "stopping …" line.
    let stopLine = SerialDisposable()
}
