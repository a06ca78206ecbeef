@testable import Signals
@testable import WatchSources
import TestSupport

/// Collects a process subscription's events for assertions.
final class ProcessRecorder: Sendable {
    private struct State {
        var events: [ProcessEvent] = []
        var error: (any Error)?
        var completed = false
    }

    private let state = Locked(State())
    private let subscription = Locked<(any Disposable)?>(nil)

    init(_ signal: Signal<ProcessEvent>) {
        let disposable = signal.subscribe(onNext: { [state] event in
            state.withLock { $0.events.append(event) }
        }, onError: { [state] error in
            state.withLock { $0.error = error }
        }, onCompleted: { [state] in
            state.withLock { $0.completed = true }
        })
        subscription.withLock { $0 = disposable }
    }

    var events: [ProcessEvent] { state.withLock { $0.events } }
    var error: (any Error)? { state.withLock { $0.error } }
    var isCompleted: Bool { state.withLock { $0.completed } }
    var isFinished: Bool { state.withLock { $0.completed || $0.error != nil } }

    var pid: Int32? {
        for case .started(let pid) in events { return pid }
        return nil
    }

    var stdout: [String] { events.compactMap { if case .stdout(let line) = $0 { line } else { nil } } }
    var stderr: [String] { events.compactMap { if case .stderr(let line) = $0 { line } else { nil } } }
    var exit: WatchSources.ExitStatus? { events.compactMap { if case .exited(let status) = $0 { status } else { nil } }.first }

    func waitUntilFinished() -> Bool { eventually { isFinished } }

    func dispose() { subscription.withLock { $0 }?.dispose() }
}
