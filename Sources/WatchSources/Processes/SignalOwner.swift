import Dispatch
import Signals
#if canImport(Glibc)
import Glibc
#endif

/// The owner thread, for the forwarding handler (set once, before the
/// handler is installed; read only by it).
nonisolated(unsafe) private var ownerThread = pthread_t()

/// The one thread that receives rwatch's stop and job-control signals.
///
/// They are blocked in every thread (the mask is set before any thread
/// starts and inherited by each), so the kernel keeps them pending until
/// this thread takes them with `sigwaitinfo`: none is lost, none runs a
/// handler in the middle of other code, and none kills rwatch by its
/// default action while it has children.
///
/// A thread that unblocks every signal for a moment (libdispatch's
/// `dispatchMain()` parks the main thread in `sigsuspend` with an empty
/// mask) would get them by their disposition instead: a handler that only
/// forwards the signal to the owner thread (`pthread_kill`) covers that.
enum SignalOwner {
    /// What the owner has been asked to do so far.
    private struct State {
        var started = false
        /// The first stop signal, once one came: rwatch is ending.
        var stopping: Int32?
        /// `exec` is under way: a stop signal is left pending for the new program.
        var execing = false
    }

    private static let state = Locked(State())

    /// True once a stop signal began ending rwatch here (not handed over).
    static var isEnding: Bool { state.withLock { $0.stopping != nil } }
    /// Signalled when an `exec` failed, so that a parked owner goes on.
    private static let execFailed = DispatchSemaphore(value: 0)
    /// Work to do on job control, registered by the terminal owner.
    private static let jobControl = Locked<[JobControlHook]>([])
    /// Set by a host (`rwatch run`) or a service that ends rwatch its own way: stop signals go to it.
    private static let stopHandler = Locked<(@Sendable (Int32, Bool) -> Void)?>(nil)

    /// A pair of hooks run when rwatch stops itself (Ctrl-Z) and continues.
    struct JobControlHook: Sendable {
        var suspending: @Sendable () -> Void
        var resumed: @Sendable () -> Void
    }

    /// The stop signals: rwatch ends on these, as on the other signals
    /// whose default action would end it (Ctrl-\\, SIGALRM, a CPU or file
    /// size limit): its children stopped first, never left running. Not
    /// SIGUSR1, SIGUSR2, SIGPROF, SIGVTALRM: the Swift runtime's crash
    /// handler and profilers signal threads with those, and taken here
    /// they ended a crashing recipe as if asked to stop.
    static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGXCPU, SIGXFSZ]
    /// A write to a pipe with no reader (`rwatch … 2>&1 | head`): raised in
    /// the writing thread, so not blocked there (the write then fails with
    /// EPIPE) but forwarded to the owner, which ends rwatch as on a stop signal.
    static let forwardedSignals: [Int32] = [SIGPIPE]
    /// Job control: handled, so that rwatch's children stop and go on with it.
    static let jobSignals: [Int32] = [SIGTSTP, SIGCONT]
    /// Blocked only: a background rwatch may set the terminal's foreground
    /// group and write status lines without being stopped.
    static let quietSignals: [Int32] = [SIGTTOU, SIGTTIN]
    /// A child ended: as the subreaper, rwatch reaps the orphans that did
    /// (`ProcessSupervisor.childEnded`). Its groups' own leaders are reaped
    /// by their life threads, which wait for them by pid.
    static let childSignals: [Int32] = [SIGCHLD]

    /// Blocks the signals in the calling thread and starts the owner thread,
    /// once.
    static func start() {
        let first = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for number in stopSignals + jobSignals + quietSignals + childSignals { sigaddset(&blocked, number) }
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        let ready = DispatchSemaphore(value: 0)
        let started = DetachedThread.start {
            ownerThread = pthread_self()
            var forwarded = sigset_t()
            sigemptyset(&forwarded)
            for number in forwardedSignals { sigaddset(&forwarded, number) }
            pthread_sigmask(SIG_BLOCK, &forwarded, nil)
            // Replaces SIG_IGN or a handler inherited from whoever started
            // rwatch; reset to the default in children and across exec.
            for number in stopSignals + jobSignals + forwardedSignals + childSignals {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = { number in _ = pthread_kill(ownerThread, number) }
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                sigaction(number, &action, nil)
            }
            ready.signal()
            run()
        }
        if started {
            ready.wait()
        } else {
            // No thread: leave the defaults in force rather than lose signals.
            pthread_sigmask(SIG_UNBLOCK, &blocked, nil)
        }
    }

    /// From now on, passes every stop signal to `handler` (on the owner
    /// thread; it must not block) instead of stopping rwatch.
    static func handOverStopSignals(to handler: @escaping @Sendable (Int32, Bool) -> Void) {
        stopHandler.withLock { $0 = handler }
    }

    /// Registers what to do around a job-control stop: leaving raw mode and
    /// taking the terminal back before rwatch stops, the reverse after.
    static func onJobControl(suspending: @escaping @Sendable () -> Void, resumed: @escaping @Sendable () -> Void) {
        jobControl.withLock { $0.append(JobControlHook(suspending: suspending, resumed: resumed)) }
    }

    private static func run() {
        var waited = sigset_t()
        sigemptyset(&waited)
        for number in stopSignals + jobSignals + forwardedSignals + childSignals { sigaddset(&waited, number) }
        var info = siginfo_t()
        while true {
            let number = sigwaitinfo(&waited, &info)
            if number < 0 { continue }  // EINTR
            switch number {
            case SIGTSTP: suspend()
            case SIGCONT: resume()
            case SIGCHLD: ProcessSupervisor.childEnded()
            default:
                if let handler = stopHandler.withLock({ $0 }) {
                    // SI_KERNEL: the terminal sent it to the foreground group.
                    handler(number, info.si_code == 0x80)
                } else {
                    stop(number)
                }
            }
        }
    }

    /// A stop signal: the first begins the stop, a second SIGINT or SIGTERM
    /// kills what is left.
    private static func stop(_ number: Int32) {
        enum Action { case begin, hurry, none, park }
        let action = state.withLock { state -> Action in
            if state.execing { return .park }
            // A second hang-up or broken pipe (a status line written while
            // stopping) is no request to hurry.
            if state.stopping != nil { return number == SIGHUP || number == SIGPIPE ? .none : .hurry }
            state.stopping = number
            return .begin
        }
        switch action {
        case .begin:
            let code = 128 + number
            // On its own thread: the owner must stay free for a second signal.
            let ending: @Sendable () -> Void = {
                ProcessSupervisor.stopAll()
                ProcessSupervisor.runCleanups()
                exit(code)
            }
            if !DetachedThread.start(ending) {
                ProcessSupervisor.killAll()
                ending()
            }
        case .hurry:
            ProcessSupervisor.killAll()
        case .none:
            break
        case .park:
            // The program about to replace rwatch inherits the blocked mask
            // and the pending signal: raise it again and wait for the exec.
            kill(getpid(), number)
            execFailed.wait()
        }
    }

    /// Ctrl-Z reached rwatch: its children stop, then rwatch.
    private static func suspend() {
        for hook in jobControl.withLock({ $0 }) { hook.suspending() }
        ProcessSupervisor.signalAll(SIGSTOP)
        kill(getpid(), SIGSTOP)
    }

    /// rwatch was continued (`fg`, `bg`, or a SIGCONT from anyone).
    private static func resume() {
        for hook in jobControl.withLock({ $0 }).reversed() { hook.resumed() }
        ProcessSupervisor.signalAll(SIGCONT)
    }

    /// Stops the group that holds the terminal when its leader stopped
    /// (Ctrl-Z went to it): rwatch and the rest stop with it.
    static func suspendForForegroundStop() {
        suspend()
    }

    /// False once a stop signal came. Otherwise a signal that comes from now
    /// on stays pending for the program `exec` starts.
    static func beginExec() -> Bool {
        state.withLock { state in
            guard state.stopping == nil else { return false }
            state.execing = true
            return true
        }
    }

    /// The `exec` failed: signals are handled here again.
    static func endExec() {
        state.withLock { $0.execing = false }
        execFailed.signal()
    }
}
