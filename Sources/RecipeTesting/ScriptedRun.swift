import Glibc
import RecipeKit

/// One run of a scripted command: the `CommandHandle` its run action
/// stops and signals, playing its `ScriptedCommand.Behaviour` on the
/// virtual clock as a process group would (exit after its duration; the
/// stop signal ends it at once unless it ignores it; SIGKILL after the
/// stop timeout ends it whatever it does).
final class ScriptedRun: CommandHandle, Sendable {
    private enum Phase {
        /// Not started; a stop may have been asked already.
        case waiting(stopAsked: Bool)
        case running
        case stopping
        case gone
    }

    private struct State {
        var phase = Phase.waiting(stopAsked: false)
        var stopping: [@Sendable () -> Void] = []
        var index: Int?
        var behaviour: ScriptedCommand.Behaviour?
        var options = ProcessOptions()
        var observer: Observer<ProcessEvent>?
        var timers: [any Disposable] = []
    }

    private let scheduler: any Scheduler
    private let recorder: Recorder
    private let state = Locked(State())

    init(scheduler: any Scheduler, recorder: Recorder) {
        self.scheduler = scheduler
        self.recorder = recorder
    }

    func start(_ words: [String], environment: [String: String], paths: [FilePath], behaviour: ScriptedCommand.Behaviour,
               options: ProcessOptions, observer: Observer<ProcessEvent>, recorder: Recorder) {
        let index = recorder.started(words, environment: environment, paths: paths)
        let stopAsked = state.withLock { state -> Bool in
            guard case .waiting(let asked) = state.phase else { return false }
            state.phase = .running
            (state.index, state.behaviour, state.options, state.observer) = (index, behaviour, options, observer)
            return asked
        }
        observer.sendNext(.started(pid: Int32(100 + index)))
        for line in behaviour.output { say(line, toStandardError: false, observer: observer, capture: options.captureOutput) }
        for line in behaviour.errors { say(line, toStandardError: true, observer: observer, capture: options.captureOutput) }
        if stopAsked {
            stop()
        } else if !behaviour.runsUntilStopped {
            // The group is gone once the leader and any child it left are.
            after(behaviour.duration + behaviour.childOutlives) { $0.end(.exited(behaviour.status)) }
        }
    }

    /// An output line: an event when rwatch captures output, else straight
    /// to the terminal as the child's own write would go.
    private func say(_ line: String, toStandardError: Bool, observer: Observer<ProcessEvent>, capture: Bool) {
        if capture {
            observer.sendNext(toStandardError ? .stderr(line) : .stdout(line))
        } else {
            recorder.output(line, prefix: "", color: nil, toStandardError: toStandardError)
        }
    }

    func stop() {
        let begun = state.withLock { state -> (ScriptedCommand.Behaviour, ProcessOptions, [@Sendable () -> Void])? in
            switch state.phase {
            case .waiting:
                state.phase = .waiting(stopAsked: true)
                return nil
            case .running:
                state.phase = .stopping
                guard let behaviour = state.behaviour else { return nil }
                defer { state.stopping.removeAll() }
                return (behaviour, state.options, state.stopping)
            case .stopping, .gone:
                return nil
            }
        }
        guard let (behaviour, options, callbacks) = begun else { return }
        for callback in callbacks { callback() }
        signalled(options.stopSignal)
        guard let ignoring = behaviour.ignoresStop else {
            after(.zero) { $0.end(.signaled(options.stopSignal)) }
            return
        }
        if ignoring < options.stopTimeout {
            after(ignoring) { $0.end(.exited(behaviour.status)) }
        } else {
            after(options.stopTimeout) { run in
                run.signalled(SIGKILL)
                run.end(.signaled(SIGKILL))
            }
        }
    }

    func send(_ number: Int32) {
        signalled(number)
        if number == SIGKILL { after(.zero) { $0.end(.signaled(SIGKILL)) } }
    }

    func onStopping(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.stopping.append(body) }
    }

    /// The test is over (the recipe is disposed): a run still alive is
    /// killed now, as rwatch's exit would.
    func waitUntilGone() {
        let alive = state.withLock { state -> Bool in
            switch state.phase {
            case .running, .stopping: true
            case .waiting, .gone: false
            }
        }
        if alive {
            signalled(SIGKILL)
            end(.signaled(SIGKILL))
        }
    }

    /// Its events' subscription ended: nothing more is sent.
    func detach() {
        let timers = state.withLock { state -> [any Disposable] in
            state.observer = nil
            defer { state.timers.removeAll() }
            return state.timers
        }
        for timer in timers { timer.dispose() }
    }

    private func signalled(_ number: Int32) {
        guard let index = state.withLock({ $0.index }) else { return }
        recorder.signalled(index, number)
    }

    /// Runs `body` `delay` from now, unless the run is gone by then.
    private func after(_ delay: Duration, _ body: @escaping @Sendable (ScriptedRun) -> Void) {
        let timer = scheduler.schedule(after: delay) { [weak self] in
            guard let self else { return }
            body(self)
        }
        state.withLock { $0.timers.append(timer) }
    }

    /// The run's group is gone with `status`.
    private func end(_ status: ExitStatus) {
        let ending = state.withLock { state -> (Int, Observer<ProcessEvent>?, [any Disposable])? in
            guard let index = state.index else { return nil }
            switch state.phase {
            case .gone, .waiting: return nil
            case .running, .stopping: state.phase = .gone
            }
            defer { state.timers.removeAll() }
            return (index, state.observer, state.timers)
        }
        guard let (index, observer, timers) = ending else { return }
        for timer in timers { timer.dispose() }
        recorder.ended(index, status)
        observer?.sendNext(.exited(status))
        observer?.sendCompleted()
    }
}
