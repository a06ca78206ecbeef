import Glibc
import RecipeKit

/// What a supervising rwatch does with its recipe child, as a pure
/// transition function: each event returns the actions to take, and
/// `RecipeSupervisor` takes them (processes, signals, the terminal). Tested
/// without processes.
///
///     running ──edit compiles──▶ swapping ──old child gone──▶ starting ──▶ running
///        │                          │
///        └──── stop signal ─────────┴──▶ stopping ──child gone──▶ finished
///
/// The recipe ending by itself finishes with its status; dying of a signal
/// it did not ask for finishes with a crash report and status 2.
struct SupervisorMachine: Equatable {
    enum Phase: Equatable {
        case running(pid_t)
        /// An edited recipe compiled into `next`: the old child was asked to
        /// stop; once it is gone, `next` starts.
        case swapping(old: pid_t, next: String)
        /// Between the old child's end and the new one's start.
        case starting(String)
        /// A stop signal came: waiting for the child to stop its groups.
        case stopping(pid_t, signal: Int32)
        case finished
    }

    enum Action: Equatable {
        /// Send a signal to the recipe child.
        case signal(pid_t, Int32)
        /// Send SIGKILL to the old child if it has not ended in time.
        case armSwapDeadline
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
    static let crashStatus: Int32 = 2

    private(set) var phase: Phase

    init(running pid: pid_t) {
        phase = .running(pid)
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
        case .running(let pid), .swapping(let pid, _):
            phase = .stopping(pid, signal: number)
            return fromTerminal ? [] : [.signal(pid, number)]
        case .stopping(let pid, _):
            // A second hang-up or broken pipe (a status line written while
            // stopping) is no request to hurry.
            return number == SIGHUP || number == SIGPIPE ? [] : [.signal(pid, SIGKILL)]
        case .starting, .finished:
            return []
        }
    }

    /// The edited recipe compiled into `binary`: stop the running one (its
    /// groups stop as on restart), then start this.
    mutating func compiled(_ binary: String) -> [Action] {
        switch phase {
        case .running(let pid):
            phase = .swapping(old: pid, next: binary)
            return [.signal(pid, SIGTERM), .armSwapDeadline]
        case .swapping(let old, _):
            phase = .swapping(old: old, next: binary)
            return []
        case .starting, .stopping, .finished:
            return []
        }
    }

    /// The old child did not end in time after SIGTERM.
    mutating func swapDeadlinePassed() -> [Action] {
        guard case .swapping(let old, _) = phase else { return [] }
        return [.signal(old, SIGKILL)]
    }

    /// The recipe binary of a `start` action runs as `pid`.
    mutating func started(_ pid: pid_t) {
        guard case .starting = phase else { return }
        phase = .running(pid)
    }

    /// The recipe binary of a `start` action could not start.
    mutating func startFailed() -> [Action] {
        guard case .starting = phase else { return [] }
        phase = .finished
        return [.exit(Self.crashStatus)]
    }

    /// The recipe child now, if one runs.
    var child: pid_t? {
        switch phase {
        case .running(let pid), .swapping(let pid, _), .stopping(let pid, _): return pid
        case .starting, .finished: return nil
        }
    }
}
