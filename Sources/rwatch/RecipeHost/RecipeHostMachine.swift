import Glibc
import RecipeKit

/// What a hosting rwatch does with its recipe child, as a pure transition
/// function: each event returns the actions to take, and `RecipeHost`
/// takes them (processes, the terminal). Tested without processes: `Child`
/// is the running recipe (a `RecipeChild`, a number in tests), held here
/// and nowhere else.
///
///     running ──edit compiles──▶ swapping ──old child gone──▶ starting ──▶ running
///        │                          │
///        └──── stop signal ─────────┴──▶ stopping ──child gone──▶ finished
///
/// The recipe ending by itself finishes with its status; dying of a signal
/// it did not ask for finishes with a crash report and status 2.
struct RecipeHostMachine<Child: Equatable>: Equatable {
    enum Phase: Equatable {
        case running(Child)
        /// An edited recipe compiled into `next`: the old child was asked to
        /// stop; once it is gone, `next` starts.
        case swapping(old: Child, next: String)
        /// Between the old child's end and the new one's start.
        case starting(String)
        /// A stop signal came: waiting for the child to stop its groups.
        case stopping(Child, signal: Int32)
        case finished
    }

    enum Action: Equatable {
        /// Pass a stop signal on to the child.
        case send(Child, Int32)
        /// Stop the child: SIGTERM, and SIGKILL if it has not ended in time
        /// (its `ProcessGroup` keeps that deadline).
        case stop(Child)
        /// SIGKILL to the child now.
        case kill(Child)
        /// Say what killed the recipe, in at most three lines.
        case reportDeath(Int32)
        /// Stop every process group the recipe left behind, reap them all,
        /// and give the terminal back to rwatch's own group.
        case sweep
        /// Start the recipe binary; then call `started(_:)`.
        case start(String)
        case exit(Int32)
    }

    /// Status of a recipe that crashed or was killed.
    static var crashStatus: Int32 { 2 }

    private(set) var phase: Phase

    init(running child: Child) {
        phase = .running(child)
    }

    /// The recipe child ended (was reaped) with `status`.
    mutating func childExited(_ status: ExitStatus) -> [Action] {
        switch phase {
        case .running:
            phase = .finished
            switch status {
            case .exited(let code): return [.sweep, .exit(code)]
            case .signaled(let number): return [.reportDeath(number), .sweep, .exit(Self.crashStatus)]
            }
        case .swapping(_, let next):
            phase = .starting(next)
            return [.sweep, .start(next)]
        case .stopping(_, let signal):
            phase = .finished
            return [.sweep, .exit(128 + signal)]
        case .starting, .finished:
            return []
        }
    }

    /// SIGINT, SIGTERM or SIGHUP reached rwatch. One from the terminal
    /// reached the recipe too (same process group); one sent to rwatch
    /// alone is passed on. A second one kills the recipe at once.
    mutating func stopSignal(_ number: Int32, fromTerminal: Bool) -> [Action] {
        switch phase {
        case .running(let child), .swapping(let child, _):
            phase = .stopping(child, signal: number)
            return fromTerminal ? [] : [.send(child, number)]
        case .stopping(let child, _):
            // A second hang-up or broken pipe (a status line written while
            // stopping) is no request to hurry.
            return number == SIGHUP || number == SIGPIPE ? [] : [.kill(child)]
        case .starting, .finished:
            return []
        }
    }

    /// The edited recipe compiled into `binary`: stop the running one (its
    /// groups stop as on restart), then start this.
    mutating func compiled(_ binary: String) -> [Action] {
        switch phase {
        case .running(let child):
            phase = .swapping(old: child, next: binary)
            return [.stop(child)]
        case .swapping(let old, _):
            phase = .swapping(old: old, next: binary)
            return []
        case .starting, .stopping, .finished:
            return []
        }
    }

    /// The recipe binary of a `start` action runs as `child`.
    mutating func started(_ child: Child) {
        guard case .starting = phase else { return }
        phase = .running(child)
    }

    /// The recipe binary of a `start` action could not start.
    mutating func startFailed() -> [Action] {
        guard case .starting = phase else { return [] }
        phase = .finished
        return [.exit(Self.crashStatus)]
    }

    /// The recipe child now, if one runs.
    var child: Child? {
        switch phase {
        case .running(let child), .swapping(let child, _), .stopping(let child, _): return child
        case .starting, .finished: return nil
        }
    }
}
