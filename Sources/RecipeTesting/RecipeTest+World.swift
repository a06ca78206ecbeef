import RecipeKit

extension RecipeTest {
    /// The world a test's recipe is built in: everything on `scheduler`'s
    /// clock, on the test's thread.
    static func world(scheduler: TestScheduler, files: VirtualFileSystem, logs: VirtualLogs, input: PublishSubject<String>,
                      recorder: Recorder, commands: [ScriptedCommand], arguments: [String],
                      environment: [String: String]) -> RecipeWorld {
        let sources = SourceWorld(files: files, logs: logs, input: { input.asSignal() }, newFileHolds: files.newFileHolds)
        // Transitions run as the clock reaches them, on the thread that moves it.
        let queue = RecipeQueue(later: { scheduler.schedule($0) }, isCurrent: { true }, wait: { $0() })
        return RecipeWorld(
            sources: sources, scheduler: scheduler, queue: queue,
            commands: ScriptedLauncher(scripts: commands, scheduler: scheduler, recorder: recorder), output: recorder,
            paths: arguments.map { FilePath($0) }, environment: { environment[$0] }, controls: PublishSubject(), eventsDirectory: nil
        )
    }
}
