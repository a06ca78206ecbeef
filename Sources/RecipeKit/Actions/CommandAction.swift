import Glibc

/// Runs one command per trigger under an `OnBusy` policy and sends a
/// `RunResult` for every run that ends. One instance per subscription of a
/// run action (and `run` shares that subscription, so one per action).
///
/// Its state is one `RunMachine`, and every transition is made on the
/// recipe queue (`RecipeQueue`), wherever the news comes from: a trigger,
/// a key, a timer, or a run's end (from its output reader's thread), so a
/// queued run starts there too. It owns no process: each run has a
/// `ProcessHandle`, and everything about the child's life (stop signal,
/// timeout, SIGKILL, reaping, the group id) is `ProcessGroup`'s. It hears
/// two things of a run: that its stop began (whoever asked), and `exited`,
/// once its whole group is gone.
final class CommandAction<Trigger: RunTrigger>: Sendable {
    typealias Run = CommandRun<Trigger>

    /// What the child gets, byte for byte.
    private let words: [CommandWord]
    /// The words as text, for status lines and `RunResult`.
    private let arguments: [String]
    /// The command as status lines show it: bytes that are not UTF-8 as `\xNN`.
    private let shown: String
    private let options: RunOptions
    private let observer: Observer<RunResult>
    /// For `RunOptions.timeout` and the status line of a slow stop.
    private let scheduler: any Scheduler
    private let machine: Locked<RunMachine<Trigger>>
    /// The subscription to the keys' commands (`RunControl`), for actions
    /// that start chains.
    private let control = SerialDisposable()

    init(arguments: [CommandWord], policy: OnBusy, options: RunOptions, scheduler: any Scheduler, observer: Observer<RunResult>) {
        words = arguments
        self.arguments = arguments.map(\.text)
        shown = CommandName.display(words: arguments, shell: options.shell)
        self.options = options
        self.scheduler = scheduler
        self.observer = observer
        machine = Locked(RunMachine(policy: policy))
        if Trigger.manual != nil {
            control.disposable = RunControl.commands.subscribe(onNext: { [weak self] command in self?.obey(command) })
        }
    }

    func receive(_ trigger: Trigger) {
        RecipeQueue.async { [self] in take(trigger, honouringPause: true) }
    }

    func complete() {
        RecipeQueue.async { [self] in perform(transition { $0.completed() }) }
    }

    /// Stops the running command (its whole process group) and returns once
    /// the group is gone, so that a caller about to exit leaves no child
    /// behind. Nothing is sent after this. The transition waits for the
    /// recipe queue (at once when called on it); the wait for the group
    /// does not hold the queue.
    func dispose() {
        control.dispose()
        guard let run = RecipeQueue.sync({ transition { $0.dispose() } }) else { return }
        run.timers.dispose()
        run.handle.stop()
        run.handle.waitUntilGone()
        run.subscription.dispose()
    }

    /// How long a stop may take before a status line says it is under way.
    static var stopLinePatience: Duration { .milliseconds(500) }

    private var announcer: RunAnnouncer { RunAnnouncer(arguments: arguments, command: shown, options: options) }

    /// On the recipe queue, as every caller of it.
    private func transition<Result>(_ body: (inout RunMachine<Trigger>) -> Result) -> Result {
        machine.withLock(body)
    }

    /// A trigger, or a key's run-now (which a pause does not hold).
    private func take(_ trigger: Trigger, honouringPause: Bool) {
        let step = transition { honouringPause ? $0.receive(trigger) : $0.runNow(trigger) }
        if case .stop = step { announcer.restarting(trigger.changes) }
        perform(step)
    }

    /// A key's command: run now (even while paused), pause, resume (the
    /// held triggers run once, merged).
    private func obey(_ command: RunControl.Command) {
        RecipeQueue.async { [self] in
            switch command {
            case .runNow:
                if let manual = Trigger.manual { take(manual, honouringPause: false) }
            case .pause:
                transition { $0.pause() }
            case .resume:
                if let held = transition({ $0.resume() }) { take(held, honouringPause: true) }
            }
        }
    }

    private func perform(_ step: RunMachine<Trigger>.Step) {
        switch step {
        case .none:
            break
        case .start(let run):
            start(run)
        case .stop(let run):
            run.handle.stop()
        case .signal(let run, let number):
            run.handle.send(number)
        case .complete:
            observer.sendCompleted()
        }
    }

    private func start(_ run: Run) {
        let environment = RunEnvironment(run.trigger.changes)
        announcer.starting(run.trigger.changes)
        var process = options.process
        process.environmentBytes.merge(environment.variables) { $1 }
        process.captureOutput = options.outputPrefix != nil
        // The run holds its handle, subscription and timers, which hold
        // these closures: they take the run weakly, or every finished run
        // would stay in memory.
        run.handle.onStopping { [self, weak run] in
            guard let run else { return }
            RecipeQueue.async { [self] in stopBegan(run) }
        }
        if let timeout = options.timeout {
            // Armed before the child exists, so no moment of the run goes
            // untimed. Stopped through its handle, like any other stop (a
            // stop ordered before the spawn reaches the group as it starts):
            // `exited` still comes once the whole group is gone.
            run.timers.add(scheduler.schedule(after: timeout) { [self, weak run] in
                guard let run else { return }
                RecipeQueue.async { [self] in perform(transition { $0.timedOut(run) }) }
            })
        }
        let prefix = options.outputPrefix ?? ""
        let events = ProcessSource.run(words, options: process, handle: run.handle).subscribe { [self, weak run] event in
            switch event {
            case .next(.stdout(let line)):
                Terminal.output(line, prefix: prefix, toStandardError: false)
            case .next(.stderr(let line)):
                Terminal.output(line, prefix: prefix, toStandardError: true)
            case .next(.exited(let status)):
                guard let run else { return }
                RecipeQueue.async { [self] in ended(run, status) }
            case .error(let error):
                guard let run else { return }
                RecipeQueue.async { [self] in failed(run, error) }
            case .next(.started), .completed:
                break
            }
        }
        // A run disposed before it exits (the action's subscription ends)
        // sends no `exited`: its events file goes with the subscription.
        run.subscription.disposable = CompositeDisposable([events, ActionDisposable { environment.remove() }])
    }

    /// `run`'s group began to stop: a stop that takes a while (a child
    /// ignoring the stop signal) says so in one line, instead of leaving
    /// rwatch silent for the stop timeout.
    private func stopBegan(_ run: Run) {
        guard transition({ $0.stopBegan(run) }) else { return }
        let patience = Self.stopLinePatience
        run.timers.add(scheduler.schedule(after: patience) { [self, weak run] in
            guard let run else { return }
            RecipeQueue.async { [self] in
                if transition({ $0.isStopping(run) }) { announcer.stopping(after: patience) }
            }
        })
    }

    /// `run` could not start: say why, and end it as a shell would (127).
    private func failed(_ run: Run, _ error: any Error) {
        Terminal.error("\(error)")
        if ShellHint.applies(to: error, arguments: arguments, shell: options.shell) { Terminal.status(ShellHint.text) }
        ended(run, .exited(127))
    }

    /// `run`'s group is gone: report it, then go on with the machine.
    private func ended(_ run: Run, _ status: ExitStatus) {
        let ending = transition { $0.exited(run) }
        run.timers.dispose()
        run.subscription.dispose()
        let stopped: RunMachine<Trigger>.StopCause?
        switch ending {
        case .stale: return
        case .own: stopped = nil
        case .stopped(let cause): stopped = cause
        }
        let duration = ContinuousClock.now - run.began
        announcer.finished(status, duration, timedOut: stopped == .timeout, stopped: stopped != nil)
        let step = RunResult.Step(name: options.name ?? shown, arguments: arguments, status: status, duration: duration)
        observer.sendNext(RunResult(steps: run.trigger.steps + [step], batch: run.trigger.changes))
        // Decided after the report: a downstream that disposes on it
        // (`take(1)`) starts nothing more.
        perform(transition { $0.next() })
    }
}
