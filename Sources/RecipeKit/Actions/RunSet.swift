extension RunMachine {
    /// The runs one trigger started: the command once, or with `{}` and
    /// `{+}` one run per changed path (or per chunk of paths), started in
    /// order, at most `jobs` at a time. A value of `RunMachine`'s phase:
    /// what waits, what runs, what ended and how.
    struct RunSet {
        /// What started the set (its paths are all of the set's).
        let trigger: Trigger
        /// When the set started, for its duration.
        let began: Duration
        /// Commands not started yet, in order.
        private(set) var waiting: [CommandTemplate.Invocation]
        /// Started and not ended.
        private(set) var running: [Run] = []
        /// Ended, in the order they ended, with their status and when.
        private(set) var ended: [(run: Run, status: ExitStatus, at: Duration)] = []
        /// Runs stopped on their own (a timeout), while the set went on.
        private var stoppedAlone: [ObjectIdentifier: StopCause] = [:]

        init(_ trigger: Trigger, _ invocations: [CommandTemplate.Invocation], at now: Duration) {
            self.trigger = trigger
            began = now
            waiting = invocations
        }

        /// Whether `run` is one of the set's running runs.
        func holds(_ run: Run) -> Bool {
            running.contains { $0 === run }
        }

        /// Starts waiting commands until `jobs` run: the runs made, each
        /// with a handle from `launcher`, begun `now`.
        mutating func fill(upTo jobs: Int, launcher: any CommandLauncher, at now: Duration) -> [Run] {
            var started: [Run] = []
            while running.count < jobs, !waiting.isEmpty {
                let run = Run(trigger, invocation: waiting.removeFirst(), handle: launcher.makeHandle(), at: now)
                running.append(run)
                started.append(run)
            }
            return started
        }

        /// Nothing more starts (the set is stopping).
        mutating func dropWaiting() {
            waiting.removeAll()
        }

        /// `run` is stopping on its own, for `cause`.
        mutating func stopAlone(_ run: Run, _ cause: StopCause) {
            stoppedAlone[ObjectIdentifier(run)] = cause
        }

        /// Why `run` alone was stopped, if it was.
        func stopCause(of run: Run) -> StopCause? {
            stoppedAlone[ObjectIdentifier(run)]
        }

        /// `run` ended with `status`, `now`.
        mutating func end(_ run: Run, _ status: ExitStatus, at now: Duration) {
            running.removeAll { $0 === run }
            ended.append((run, status, now))
        }

        /// Whether every run of the set has ended.
        var isOver: Bool { running.isEmpty && waiting.isEmpty }

        /// The worst status of the set: the highest shell status, so a
        /// failure outranks success and a signal outranks an exit code
        /// (what `--once` exits with).
        var worst: ExitStatus? {
            ended.map(\.status).max { $0.shellCode < $1.shellCode }
        }
    }

    /// How a set ended, for its `RunResult`.
    struct Outcome {
        let set: RunSet
        /// Set when rwatch stopped the whole set.
        let stopped: StopCause?
    }
}
