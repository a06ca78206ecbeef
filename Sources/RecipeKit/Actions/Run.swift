extension Signal where Value: RunTrigger {
    /// Runs `arguments` (argv, no shell unless `options.shell` says so) for
    /// every value, under the `onBusy` policy, and sends a `RunResult` when a
    /// run ends.
    ///
    ///     batches:  -a----b-c---------|
    ///     command:   [==a==][==bc==]        onBusy: .queue (b and c merged)
    ///     output:   -------r------r----|
    ///
    /// The changed paths reach the command as environment variables
    /// (`RWATCH_PATHS`, `RWATCH_COMMON_PATH`, `RWATCH_EVENTS_FILE`), never
    /// pasted into a command string.
    ///
    /// Per-file runs: `{}` in a word gives one run per changed path, the
    /// path as (or in place inside) that word; `{+}` one run with every
    /// path as words, split at the kernel's argument limit; at most
    /// `options.jobs` of a value's runs at once (`CommandTemplate`). The
    /// result of a value's runs is one `RunResult` with their worst status.
    ///
    ///     batches.run(["cc", "-c", "{}"], options: RunOptions(jobs: 4))
    ///
    /// The action is a side effect and runs once per value however many
    /// observers subscribe to its result: the returned signal is shared.
    /// Upstream completion completes it after the last run (and the pending
    /// one) has ended; an upstream error passes through at once. Disposing
    /// stops the running command's process group.
    // (Same shape as the `[CommandWord]` overload below, on purpose: this
    // one only turns text into words and hands them over.)
    public func run(
        _ arguments: [String],
        onBusy: OnBusy = .queue,
        options: RunOptions = RunOptions(),
        scheduler: any Scheduler = RecipeWorld.current.scheduler
    ) -> Signal<RunResult> {
        run(arguments.map { CommandWord($0) }, onBusy: onBusy, options: options, scheduler: scheduler)
    }

    /// `run(_:onBusy:options:scheduler:)` for a command whose words are
    /// bytes (a path typed on rwatch's command line need not be UTF-8): the
    /// child gets them exactly; `RunResult.arguments` and status lines show
    /// them as text.
    @_disfavoredOverload
    public func run(
        _ arguments: [CommandWord],
        onBusy: OnBusy = .queue,
        options: RunOptions = RunOptions(),
        scheduler: any Scheduler = RecipeWorld.current.scheduler
    ) -> Signal<RunResult> {
        precondition(!arguments.isEmpty, "run needs a command")
        let source = self
        let template: CommandTemplate
        do {
            template = try CommandTemplate.forRun(arguments, options: options)
        } catch {
            // Each subscriber hears what is wrong with the command.
            return Signal<RunResult>.error(error)
        }
        // The world it is built in: its commands start there, whenever subscribed.
        let world = RecipeWorld.current
        return Signal<RunResult> { observer in
            let action = CommandAction<Value>(template: template, policy: onBusy, options: options, scheduler: scheduler, world: world,
                                              observer: observer)
            let upstream = source.subscribe { event in
                switch event {
                case .next(let trigger): action.receive(trigger)
                case .error(let error): observer.sendError(error)
                case .completed: action.complete()
                }
            }
            return ActionDisposable {
                upstream.dispose()
                action.dispose()
            }
        }.share().described("run", [arguments.parameterLabel, "onBusy: \(onBusy.label)"] + options.parameterLabels, after: self)
    }
}
