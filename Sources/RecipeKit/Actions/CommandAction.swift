import Glibc

/// Runs a command for each trigger under an `OnBusy` policy and sends a
/// `RunResult` for every trigger's runs once they have ended. One instance
/// per subscription of a run action (and `run` shares that subscription,
/// so one per action).
///
/// Its state is one `RunMachine`, and every transition is made on the
/// world's queue (`RecipeWorld.queue`), wherever the news comes from: a trigger,
/// a key, a timer, or a run's end (from its output reader's thread), so a
/// queued run starts there too. A trigger starts a set of runs: the
/// command once, or with `{}`/`{+}` once per changed path
/// (`CommandTemplate`), `RunOptions.jobs` at a time. It owns no process:
/// each run has a `ProcessHandle`, and everything about the child's life
/// (stop signal, timeout, SIGKILL, reaping, the group id) is
/// `ProcessGroup`'s. It hears two things of a run: that its stop began
/// (whoever asked), and `exited`, once its whole group is gone.
final class CommandAction<Trigger: RunTrigger>: Sendable {
    typealias Run = CommandRun<Trigger>

    /// The words as text, for `RunResult`.
    private let arguments: [String]
    /// The command as status lines show it: bytes that are not UTF-8 as
    /// `\xNN`, placeholders as typed.
    private let shown: String
    private let isPerPath: Bool
    private let options: RunOptions
    private let observer: Observer<RunResult>
    /// For `RunOptions.timeout`, the status line of a slow stop, and durations.
    private let scheduler: any Scheduler
    /// What it acts on: its queue, its commands, its output, the keys.
    private let world: RecipeWorld
    private let machine: Locked<RunMachine<Trigger>>
    /// The subscription to the keys' commands (`RunControl`), for actions
    /// that start chains.
    private let control = SerialDisposable()
    /// Whether the command keeps starting itself (on the recipe queue).
    private let loops = Locked(LoopDetector())

    init(template: CommandTemplate, policy: OnBusy, options: RunOptions, scheduler: any Scheduler, world: RecipeWorld,
         observer: Observer<RunResult>) {
        arguments = template.words.map(\.text)
        shown = CommandName.display(words: template.words, shell: options.shell)
        isPerPath = template.isPerPath
        self.options = options
        self.scheduler = scheduler
        self.world = world
        self.observer = observer
        machine = Locked(RunMachine(policy: policy, jobs: max(options.jobs, 1), template: template, launcher: world.commands))
        if Trigger.manual != nil {
            control.disposable = world.controls.subscribe(onNext: { [weak self] command in self?.obey(command) })
        }
    }

    func receive(_ trigger: Trigger) {
        world.queue.async { [self] in take(trigger, honouringPause: true) }
    }

    func complete() {
        world.queue.async { [self] in perform(transition { $0.completed() }) }
    }

    /// Stops the running commands (their whole process groups) and returns
    /// once the groups are gone, so that a caller about to exit leaves no
    /// child behind. Nothing is sent after this. The transition waits for
    /// the recipe queue (at once when called on it); the wait for the
    /// groups does not hold the queue.
    func dispose() {
        control.dispose()
        let runs = world.queue.sync { transition { $0.dispose() } }
        for run in runs {
            run.timers.dispose()
            run.handle.stop()
        }
        for run in runs {
            run.handle.waitUntilGone()
            run.subscription.dispose()
        }
    }

    /// How long a stop may take before a status line says it is under way.
    static var stopLinePatience: Duration { .milliseconds(500) }

    private var announcer: RunAnnouncer { RunAnnouncer(command: shown, options: options, output: world.output) }

    /// On the recipe queue, as every caller of it.
    private func transition<Result>(_ body: (inout RunMachine<Trigger>) -> Result) -> Result {
        machine.withLock(body)
    }

    /// A trigger, or a key's run-now (which a pause does not hold).
    private func take(_ trigger: Trigger, honouringPause: Bool) {
        let now = scheduler.now
        let step = transition { honouringPause ? $0.receive(trigger, at: now) : $0.runNow(trigger, at: now) }
        if case .stop = step { announcer.restarting(trigger.changes) }
        perform(step)
    }

    /// A key's command: run now (even while paused), pause, resume (the
    /// held triggers run once, merged).
    private func obey(_ command: RunControl.Command) {
        world.queue.async { [self] in
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
        case .start(let runs):
            // A new set (runs that follow within a set start from `ended`).
            options.onSetStart?()
            if let trigger = runs.first?.trigger { watchForLoop(trigger.changes) }
            for run in runs { start(run) }
        case .stop(let runs):
            for run in runs { run.handle.stop() }
        case .signal(let runs, let number):
            for run in runs { run.handle.send(number) }
        case .nothingToRun:
            announcer.nothingToRun()
            let now = scheduler.now
            perform(transition { $0.next(at: now) })
        case .complete:
            observer.sendCompleted()
        }
    }

    /// The command as one run's status lines name it: with `{}`/`{+}`,
    /// the action's command and the file (`cc -c {} (src/a.c)`).
    private func label(of run: Run) -> String? {
        guard isPerPath, let first = run.invocation.paths.first else { return nil }
        let more = run.invocation.paths.count > 1 ? " +\(run.invocation.paths.count - 1) more" : ""
        return "\(shown) (\(Quoted.escaped(Terminal.relative(first)))\(more))"
    }

    private func start(_ run: Run) {
        let changes = run.changes
        let environment = RunEnvironment(changes, directory: world.eventsDirectory)
        announcer.starting(changes)
        var process = options.process
        process.environmentBytes.merge(environment.variables) { $1 }
        process.captureOutput = options.outputPrefix != nil
        process.shellParameters = run.invocation.shellParameters
        // The run holds its handle, subscription and timers, which hold
        // these closures: they take the run weakly, or every finished run
        // would stay in memory.
        run.handle.onStopping { [self, weak run] in
            guard let run else { return }
            world.queue.async { [self] in stopBegan(run) }
        }
        if let timeout = options.timeout {
            // Armed before the child exists, so no moment of the run goes
            // untimed. Stopped through its handle, like any other stop (a
            // stop ordered before the spawn reaches the group as it starts):
            // `exited` still comes once the whole group is gone.
            run.timers.add(scheduler.schedule(after: timeout) { [self, weak run] in
                guard let run else { return }
                world.queue.async { [self] in perform(transition { $0.timedOut(run) }) }
            })
        }
        let prefix = options.outputPrefix ?? ""
        let output = world.output
        let events = world.commands.run(run.invocation.words, options: process, handle: run.handle, changes: changes).subscribe { [self, weak run] event in
            switch event {
            case .next(.stdout(let line)):
                output.output(line, prefix: prefix, color: nil, toStandardError: false)
            case .next(.stderr(let line)):
                output.output(line, prefix: prefix, color: nil, toStandardError: true)
            case .next(.exited(let status)):
                guard let run else { return }
                world.queue.async { [self] in ended(run, status) }
            case .error(let error):
                guard let run else { return }
                world.queue.async { [self] in failed(run, error) }
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
            world.queue.async { [self] in
                if transition({ $0.isStopping(run) }) { announcer.stopping(after: patience) }
            }
        })
    }

    /// `run` could not start: say why, and end it as a shell would (127).
    /// A start refused because rwatch is ending (Ctrl-C as a step exits,
    /// before the next one starts) is not an error worth a line.
    private func failed(_ run: Run, _ error: any Error) {
        if !ProcessSupervisor.isEnding { world.output.error("\(error)") }
        if ShellHint.applies(to: error, arguments: arguments, shell: options.shell) { world.output.status(ShellHint.text, color: nil) }
        ended(run, .exited(127))
    }

    /// `run`'s group is gone: report it, then go on with the machine.
    private func ended(_ run: Run, _ status: ExitStatus) {
        let now = scheduler.now
        let (ending, after) = transition { $0.exited(run, status, at: now) }
        run.timers.dispose()
        run.subscription.dispose()
        let stopped: RunMachine<Trigger>.StopCause?
        switch ending {
        case .stale: return
        case .own: stopped = nil
        case .stopped(let cause): stopped = cause
        }
        announcer.finished(status, now - run.began, timedOut: stopped == .timeout, stopped: stopped != nil, shown: label(of: run))
        switch after {
        case .wait:
            break
        case .start(let runs):
            for next in runs { start(next) }
        case .finished(let outcome):
            report(outcome)
            // Decided after the report: a downstream that disposes on it
            // (`take(1)`) starts nothing more.
            let later = scheduler.now
            perform(transition { $0.next(at: later) })
        }
    }

    /// A set starts for `changes`: says once when the last runs were all
    /// started by files the command wrote while it ran (`LoopDetector`).
    private func watchForLoop(_ changes: ChangeBatch?) {
        let files = world.sources.files
        let paths = (changes?.paths ?? []).prefix(256).map { ($0, files.modificationTime($0)) }
        guard let warning = loops.withLock({ $0.started(at: files.wallClock(), paths: paths) }) else { return }
        let shown = warning.paths.prefix(3).map { Quoted.path(Terminal.relative($0)) }.joined(separator: ", ")
        let more = warning.paths.count > 3 ? " +\(warning.paths.count - 3) more" : ""
        let flags = LoopDetector.ignoreFlags(for: warning.paths, base: FileSystem.absolute(".")).joined(separator: " ")
        world.output.warning("the last \(warning.runs) runs of \(announcer.name) were started only by files it wrote while it ran "
            + "(\(shown)\(more)); if it keeps starting itself, ignore them: \(flags)")
    }

    /// Every run of a trigger's set ended: one `RunResult` for the set
    /// (its worst status; each run in `runs` with `{}`/`{+}`).
    private func report(_ outcome: RunMachine<Trigger>.Outcome) {
        let now = world.sources.files.wallClock()
        loops.withLock { $0.ended(at: now, stopped: outcome.stopped != nil) }
        let set = outcome.set
        let duration = scheduler.now - set.began
        guard let worst = set.worst else { return }
        var runs: [RunResult.Step] = []
        if isPerPath {
            runs = set.ended.map { run, status, end in
                RunResult.Step(name: options.name ?? shown, arguments: run.invocation.words.map(\.text), status: status,
                               duration: end - run.began, paths: run.invocation.paths)
            }
            let failed = set.ended.filter { !$0.status.succeeded }.count
            announcer.finished(set: set.ended.count, failed: failed, worst: worst, duration, stopped: outcome.stopped != nil)
        }
        let step = RunResult.Step(name: options.name ?? shown, arguments: arguments, status: worst, duration: duration)
        observer.sendNext(RunResult(steps: set.trigger.steps + [step], batch: set.trigger.changes, runs: runs))
    }
}
