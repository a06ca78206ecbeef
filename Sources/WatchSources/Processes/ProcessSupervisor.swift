import Dispatch
import Signals
#if canImport(Glibc)
import Glibc
#endif

/// The registry of every live `ProcessGroup` (the commands `ProcessSource`
/// started, a recipe binary, adopted orphans), so that none outlives
/// rwatch, and the one owner of rwatch's stop and job-control signals
/// (`takeOverSignals()`).
public enum ProcessSupervisor {
    struct Registry {
        /// Every live owner, by the pid of the process it owns.
        var groups: [pid_t: ProcessGroup] = [:]
        /// Set once rwatch is stopping: no new spawn starts, and a group
        /// that registers from then on is stopped at once.
        var closing = false
        /// Spawns between `beginSpawn` and `register`/`endSpawn`: their
        /// children exist but are not registered yet.
        var spawning = 0

        /// The groups the broadcasts reach: not those in rwatch's own
        /// group, which hear the terminal as rwatch does and are their
        /// starter's to stop.
        var ownGroups: [ProcessGroup] { groups.values.filter { !$0.isInRwatchsGroup } }
    }

    static let registry = Locked(Registry())
    /// Set by `becomeSubreaper()`.
    private static let subreaper = Locked(false)
    /// Entered by each spawn between `beginSpawn` and `register`/`endSpawn`.
    private static let spawns = DispatchGroup()
    /// Work for the end, and whether the end came (later work runs at once).
    private static let cleanups = Locked<(work: [@Sendable () -> Void], ran: Bool)>(([], false))

    /// Takes over SIGINT, SIGTERM and SIGHUP (and the job-control signals)
    /// for the whole process; the same as `takeOverSignals()`, under the
    /// name older callers use.
    public static func installSignalHandlers() {
        takeOverSignals()
    }

    /// Blocks the stop signals (SIGINT, SIGTERM, SIGHUP) and the job-control
    /// signals (SIGTSTP, SIGCONT, SIGTTIN, SIGTTOU) in the calling thread and
    /// starts the one thread that waits for them (`sigwaitinfo`).
    ///
    /// Call it first in `main`, before any other thread exists: threads
    /// inherit the mask, so from then on no thread is ever interrupted by
    /// these signals and none is lost, whenever it comes (the first
    /// millisecond, during a spawn, during a compile). Children get an empty
    /// mask and default actions back (`ProcessLauncher`).
    ///
    /// What the owner does:
    /// - SIGINT, SIGTERM, SIGHUP: stops every child group (stop signal,
    ///   stop timeout, SIGKILL), runs the `onStop` work, exits 128+N. A
    ///   second SIGINT or SIGTERM while stopping kills every group at once.
    /// - SIGTSTP (Ctrl-Z while rwatch has the terminal): stops every child
    ///   group and then rwatch itself; SIGCONT (`fg`, `bg`) continues both.
    ///
    /// Later calls do nothing.
    public static func takeOverSignals() {
        SignalOwner.start()
    }

    /// Hands every later stop signal (SIGINT, SIGTERM, SIGHUP) to `handler`
    /// instead of stopping rwatch: for a recipe host whose child stops its
    /// own groups, and which must then clean up and exit itself.
    /// `fromTerminal` is true when the terminal sent the signal to its whole
    /// foreground group (Ctrl-C), false when a process sent it (`kill`).
    /// `handler` runs on the signal owner's thread and must not block.
    public static func handOverStopSignals(to handler: @escaping @Sendable (_ number: Int32, _ fromTerminal: Bool) -> Void) {
        SignalOwner.handOverStopSignals(to: handler)
    }

    /// Registers work to do when a stop signal ends rwatch, after every
    /// child group has stopped and just before exiting: removing temporary
    /// files no child uses any more, restoring the terminal. Registered
    /// after that moment, it runs at once.
    public static func onStop(_ cleanup: @escaping @Sendable () -> Void) {
        let late = cleanups.withLock { state -> Bool in
            if !state.ran { state.work.append(cleanup) }
            return state.ran
        }
        if late { cleanup() }
    }

    /// Replaces rwatch with `path` (`execv`), unless a stop signal already
    /// came; a stop signal that comes meanwhile stays pending for the new
    /// program, which inherits the blocked mask. Returns only on failure:
    /// errno's value, or ECANCELED when rwatch is stopping.
    public static func exec(_ path: String, _ arguments: [String]) -> Int32 {
        exec(path, arguments.map { CommandWord($0) })
    }

    /// `exec(_:_:)` with arguments as bytes (paths typed on the command
    /// line need not be UTF-8): the new program gets them exactly.
    @_disfavoredOverload
    public static func exec(_ path: String, _ arguments: [CommandWord]) -> Int32 {
        guard SignalOwner.beginExec() else { return ECANCELED }
        let code = CStrings.with(arguments.map(\.bytes)) { argv in
            execv(path, argv)
            return errno
        }
        SignalOwner.endExec()
        return code
    }

    /// Ends rwatch with `code`, unless a stop signal is already ending it:
    /// then it waits, and the stop exits with 128+N once every child group
    /// is gone. So work that fails because rwatch is stopping (a spawn
    /// refused, a pipeline cut short) never races the stop to an exit
    /// status of its own, or past the cleanup. As the subreaper, rwatch
    /// first stops every orphan left (`stopOrphans`): it exits only once
    /// every descendant is gone. The `onStop` work runs last.
    public static func exit(_ code: Int32) -> Never {
        if isEnding { waitForEnd() }
        if isSubreaper { stopOrphans(stopTimeout: .seconds(5)) }
        runCleanups()
        Glibc.exit(code)
    }

    /// Makes rwatch the child subreaper (`PR_SET_CHILD_SUBREAPER`): a
    /// process a run started whose parent died (a double fork, `daemon(3)`)
    /// becomes rwatch's child instead of init's, so that rwatch reaps it
    /// when it ends (at each SIGCHLD), stops it with the run that left it
    /// (`ProcessOptions.stopsDescendants`), and at its own exit. Call it
    /// before starting anything. False when the kernel refused.
    @discardableResult
    public static func becomeSubreaper() -> Bool {
        guard ProcessControl.becomeSubreaper() else { return false }
        subreaper.withLock { $0 = true }
        return true
    }

    /// How runs' descendants are followed, in one line (for `-v`).
    public static var containment: String {
        if let reason = ControlGroup.unavailableReason {
            return "runs are followed through their process tree and the subreaper (\(reason))"
        }
        return "each run gets a cgroup of its own: nothing it starts escapes a stop"
    }

    /// Whether rwatch is the child subreaper (`becomeSubreaper()`).
    static var isSubreaper: Bool { subreaper.withLock { $0 } }

    /// A child of rwatch ended (SIGCHLD): orphans that ended are reaped.
    static func childEnded() {
        if isSubreaper { reapOrphans() }
    }

    /// Stops every live child group now, blocking until each is gone (after
    /// at most its stop timeout and a SIGKILL). Spawns under way are waited
    /// for and stopped too; no new spawn starts after this. (A child in
    /// rwatch's own process group is its starter's to stop.)
    public static func stopAll() {
        registry.withLock { $0.closing = true }
        spawns.wait()
        let groups = registry.withLock { $0.ownGroups }
        for group in groups { group.stop() }
        for group in groups { group.waitUntilGone() }
        if isSubreaper { stopOrphans(stopTimeout: .seconds(5)) }
    }

    /// SIGKILL to every live child group now (a second Ctrl-C).
    public static func killAll() {
        let groups = registry.withLock { registry in
            registry.closing = true
            return registry.ownGroups
        }
        for group in groups { group.kill() }
    }

    /// Sends `number` to every live child group (job control: SIGSTOP when
    /// rwatch stops, SIGCONT when it continues).
    static func signalAll(_ number: Int32) {
        for group in registry.withLock({ $0.ownGroups }) { group.send(number) }
    }

    /// True once a stop signal began ending rwatch: the signal owner stops
    /// every group and exits 128+N. Work that failed because of it (a spawn
    /// refused, a compiler stopped) is not a failure of its own to report.
    public static var isEnding: Bool { SignalOwner.isEnding }

    /// Parks the calling thread for good while the signal owner ends rwatch
    /// (call it only when `isEnding`): its exit status is the one that counts.
    public static func waitForEnd() -> Never {
        while true { pause() }
    }

    /// How many groups are live now (spawned and not yet gone).
    public static var liveGroupCount: Int { registry.withLock { $0.groups.count } }

    /// The work registered with `onStop`, in order.
    static func runCleanups() {
        let work = cleanups.withLock { state -> [@Sendable () -> Void] in
            state.ran = true
            return state.work
        }
        for cleanup in work { cleanup() }
    }

    /// Called before spawning: false once rwatch is stopping (spawn nothing
    /// then). Every true must be followed by `register` or `endSpawn`.
    static func beginSpawn() -> Bool {
        registry.withLock { registry in
            guard !registry.closing else { return false }
            registry.spawning += 1
            spawns.enter()
            return true
        }
    }

    /// A spawn begun with `beginSpawn` failed: nothing to register.
    static func endSpawn() {
        registry.withLock { $0.spawning -= 1 }
        spawns.leave()
    }

    /// Registers a spawned group (ending its `beginSpawn`); stops it at once
    /// when rwatch is stopping.
    static func register(_ group: ProcessGroup) {
        let closing = registry.withLock { registry in
            registry.groups[group.id] = group
            registry.spawning -= 1
            return registry.closing
        }
        if closing { group.stop() }
        spawns.leave()
    }

    /// Registers `group`, the owner of an orphan (`ProcessGroup.adopt`),
    /// unless its process is owned already or a spawn is under way (whose
    /// child, not registered yet, may be that process). A group adopted
    /// while rwatch is stopping is stopped like any other.
    static func adopt(_ group: ProcessGroup) -> Bool {
        registry.withLock { registry in
            guard registry.spawning == 0, registry.groups[group.id] == nil else { return false }
            registry.groups[group.id] = group
            return true
        }
    }

    /// Reaps `pid`, an ended child of rwatch, unless an owner has it (or a
    /// spawn is under way: it may be that spawn's, not registered yet).
    /// True when it was reaped or is no zombie of ours any more.
    static func reapUnowned(_ pid: pid_t) -> Bool {
        registry.withLock { registry in
            guard registry.spawning == 0, registry.groups[pid] == nil else { return false }
            return ProcessGroup.reapEndedOrphan(pid)
        }
    }

    /// The owner of the process `pid`, if one has it.
    static func owner(of pid: pid_t) -> ProcessGroup? {
        registry.withLock { $0.groups[pid] }
    }

    static func unregister(_ group: ProcessGroup) {
        registry.withLock { registry in
            if registry.groups[group.id] === group { registry.groups[group.id] = nil }
        }
    }
}
