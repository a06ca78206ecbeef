extension Signal where Value == RunResult {
    /// Starts `arguments` (a server) after every run that passes `when`
    /// (by default: it succeeded), in place of the one started before, and
    /// leaves that one serving when a run fails: a build gating its server.
    ///
    ///     builds:  -ok---------fail--------ok------|
    ///     server:   [====s1=================][==s2==…
    ///                       s1 keeps serving while builds run, and after one fails
    ///
    ///     FileWatcher.watch(["src"]).batched(.milliseconds(50)).startingNow()
    ///         .run(["cargo", "build"], onBusy: .restart)   // a change during a build restarts the build
    ///         .restarting(["./target/debug/server"])       // only a passing build restarts the server
    ///
    /// The server is run under `onBusy` (`.restart`: the old one is stopped,
    /// its whole process group, and the new one starts once it is gone). A
    /// run that does not pass says so in one line: the server keeps running
    /// (or, before the first pass, is not started). Results: the server's
    /// runs as they end, and the runs that did not pass, untouched (as
    /// `then`). Completes when the upstream has completed and the server's
    /// last run has ended; disposing stops the server.
    public func restarting(
        _ arguments: [String], when passes: @escaping @Sendable (RunResult) -> Bool = { $0.succeeded },
        onBusy: OnBusy = .restart, options: RunOptions = RunOptions()
    ) -> Signal<RunResult> {
        restarting(arguments.map { CommandWord($0) }, when: passes, onBusy: onBusy, options: options)
    }

    /// `restarting(_:when:onBusy:options:)` for a command whose words are
    /// bytes (typed on rwatch's command line: they need not be UTF-8).
    @_disfavoredOverload
    public func restarting(
        _ arguments: [CommandWord], when passes: @escaping @Sendable (RunResult) -> Bool = { $0.succeeded },
        onBusy: OnBusy = .restart, options: RunOptions = RunOptions()
    ) -> Signal<RunResult> {
        let shared = share()
        // Sets started minus results: whether a server is up when a run fails.
        let live = Locked(0)
        var serving = options
        serving.onSetStart = { live.withLock { $0 += 1 } }
        let name = serving.name.map(Quoted.escaped) ?? CommandName.display(words: arguments, shell: options.shell)
        let statusLines = options.statusLines
        let output = RecipeWorld.current.output
        let failures = shared.filter { !passes($0) }.on(next: { result in
            guard statusLines else { return }
            let failed = result.step.name
            if live.withLock({ $0 }) > 0 {
                output.status("\(name) keeps running: \(failed) did not pass, so it was not restarted", color: .yellow)
            } else {
                output.status("\(name) not started: \(failed) did not pass; waiting for a change", color: .yellow)
            }
        })
        let servers = shared.filter(passes).run(arguments, onBusy: onBusy, options: serving)
            .on(next: { _ in live.withLock { $0 -= 1 } })
        return Signal.merge([failures, servers]).share()
            .described("restarting", [arguments.parameterLabel, "onBusy: \(onBusy.label)"] + options.parameterLabels, after: self)
    }
}
