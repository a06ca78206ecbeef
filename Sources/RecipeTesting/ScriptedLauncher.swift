import Glibc
import RecipeKit

/// The world's commands in a `RecipeTest`: each run plays its
/// `ScriptedCommand` on the virtual clock, and is recorded. Nothing is spawned.
final class ScriptedLauncher: CommandLauncher, Sendable {
    private let scheduler: any Scheduler
    private let recorder: Recorder
    private let scripts: [ScriptedCommand]
    /// How many runs each script has played (by index in `scripts`).
    private let played = Locked<[Int: Int]>([:])

    init(scripts: [ScriptedCommand], scheduler: any Scheduler, recorder: Recorder) {
        self.scripts = scripts
        self.scheduler = scheduler
        self.recorder = recorder
    }

    func makeHandle() -> any CommandHandle {
        ScriptedRun(scheduler: scheduler, recorder: recorder)
    }

    func run(_ words: [CommandWord], options: ProcessOptions, handle: any CommandHandle, changes: ChangeBatch?) -> Signal<ProcessEvent> {
        let text = words.map(\.text)
        let behaviour = behaviour(for: text)
        guard let run = handle as? ScriptedRun else { return .error(ProcessError(command: text.first ?? "", reason: .spawnFailed(EINVAL))) }
        var variables: [String: String] = [:]
        for (name, value) in options.environmentBytes where name.hasPrefix("RWATCH_") {
            // Shown as text, for assertions; a path's bytes need not be UTF-8.
            variables[name] = String(decoding: value, as: UTF8.self)
        }
        let environment = variables
        // From the changes, not `RWATCH_PATHS`: a name may hold a newline.
        let paths = changes?.paths ?? []
        return Signal { [recorder] observer in
            run.start(text, environment: environment, paths: paths, behaviour: behaviour, options: options, observer: observer,
                      recorder: recorder)
            return ActionDisposable { run.detach() }
        }
    }

    /// The behaviour of the next run of `words`: its script's next, or an
    /// exit 0 at once when no script names it.
    private func behaviour(for words: [String]) -> ScriptedCommand.Behaviour {
        guard let index = scripts.firstIndex(where: { $0.matches(words) }) else { return .exits(0) }
        let count = played.withLock { played in
            defer { played[index, default: 0] += 1 }
            return played[index, default: 0]
        }
        let runs = scripts[index].runs
        return runs[min(count, runs.count - 1)]
    }
}
