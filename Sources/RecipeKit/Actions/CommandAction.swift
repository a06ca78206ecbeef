import Glibc

/// Runs one command per trigger under an `OnBusy` policy and sends a
/// `RunResult` for every run that ends. One instance per subscription of a
/// run action (and `run` shares that subscription, so one per action).
final class CommandAction<Trigger: RunTrigger>: Sendable {
    private let arguments: [String]
    private let options: RunOptions
    private let observer: Observer<RunResult>
    private let machine: Locked<RunMachine<Trigger>>
    /// The current run's process subscription.
    private let current = SerialDisposable()
    /// The SIGKILL timer of a stop in progress.
    private let killTimer = SerialDisposable()
    private let scheduler: any Scheduler

    init(arguments: [String], policy: OnBusy, options: RunOptions, scheduler: any Scheduler, observer: Observer<RunResult>) {
        self.arguments = arguments
        self.options = options
        self.observer = observer
        self.scheduler = scheduler
        machine = Locked(RunMachine(policy: policy))
    }

    func receive(_ trigger: Trigger) {
        perform(machine.withLock { $0.receive(trigger) })
    }

    func complete() {
        perform(machine.withLock { $0.completed() })
    }

    /// Stops the running command's group (the process subscription's
    /// dispose) and waits until no member of it is left running, so that a
    /// caller about to exit leaves no child behind.
    func dispose() {
        let group = runningGroup()
        killTimer.dispose()
        current.dispose()
        if let group { GroupReaper.waitUntilGone(group, grace: options.stopTimeout) }
    }

    /// The group of the command running now, if any. A run another thread
    /// is starting has no group id yet: its spawn returns within moments,
    /// so wait for that (up to a second) rather than leave it unwaited.
    private func runningGroup() -> Int32? {
        let deadline = ContinuousClock.now + .seconds(1)
        while true {
            let (group, starting): (Int32?, Bool) = machine.withLock { state in
                switch state.phase {
                case .running(let group): return (group, false)
                case .stopping(let group): return (group, group == nil)
                case .starting: return (nil, true)
                case .idle: return (nil, false)
                }
            }
            if !starting || ContinuousClock.now >= deadline { return group }
            usleep(1_000)
        }
    }

    private func perform(_ step: RunMachine<Trigger>.Step) {
        switch step {
        case .none:
            break
        case .start(let trigger):
            start(trigger)
        case .stop(let group):
            kill(-group, options.stopSignal)
            killTimer.disposable = scheduler.schedule(after: options.stopTimeout) { kill(-group, SIGKILL) }
        case .signal(let group, let number):
            kill(-group, number)
        case .complete:
            observer.sendCompleted()
        }
    }

    private func start(_ trigger: Trigger) {
        let environment = RunEnvironment(trigger.changes)
        RunAnnouncer(arguments: arguments, options: options).starting(trigger.changes)
        var process = ProcessOptions()
        process.environment = options.environment.merging(environment.variables) { $1 }
        process.workingDirectory = options.workingDirectory
        process.shell = options.shell
        process.stopSignal = options.stopSignal
        process.gracePeriod = options.stopTimeout
        process.captureOutput = options.outputPrefix != nil
        let began = ContinuousClock.now
        let group = Locked<Int32?>(nil)
        let slot = SerialDisposable()
        current.disposable = slot
        // A run disposed before it exits (the action's subscription ends)
        // sends no `exited`: its events file goes with the subscription.
        let run = ProcessSource.run(arguments, options: process).subscribe { [self] event in
            switch event {
            case .next(.started(let pid)):
                group.withLock { $0 = pid }
                perform(machine.withLock { $0.started(group: pid) })
            case .next(.stdout(let line)):
                Terminal.output(line, prefix: options.outputPrefix ?? "", toStandardError: false)
            case .next(.stderr(let line)):
                Terminal.output(line, prefix: options.outputPrefix ?? "", toStandardError: true)
            case .next(.exited(let status)):
                finish(trigger, status, ContinuousClock.now - began, group: group.withLock { $0 }, environment)
            case .error(let error):
                Terminal.error("\(error)")
                if ShellHint.applies(to: error, arguments: arguments, shell: options.shell) { Terminal.status(ShellHint.text) }
                finish(trigger, .exited(127), ContinuousClock.now - began, group: nil, environment)
            case .completed:
                break
            }
        }
        slot.disposable = CompositeDisposable([run, ActionDisposable { environment.remove() }])
    }

    private func finish(_ trigger: Trigger, _ status: ExitStatus, _ duration: Duration, group: Int32?, _ environment: RunEnvironment) {
        killTimer.disposable = nil
        let stopping = machine.withLock { state -> Bool in
            if case .stopping = state.phase { return true }
            return false
        }
        if stopping, let group { GroupReaper.reap(group, within: options.stopTimeout) }
        environment.remove()
        RunAnnouncer(arguments: arguments, options: options).finished(status, duration)
        let name = options.name ?? RunResult.name(of: arguments)
        let step = RunResult.Step(name: name, arguments: arguments, status: status, duration: duration)
        observer.sendNext(RunResult(steps: trigger.steps + [step], batch: trigger.changes))
        perform(machine.withLock { $0.exited() })
    }
}
