import Dispatch

extension QueueScheduler {
    /// The serial queue that RecipeKit's operators and actions run their
    /// timers on in the live world (`RecipeWorld.live`), and where every
    /// run action changes state (`RecipeQueue`): one for the process, made
    /// on first use (not a new queue per call).
    public static let recipe: QueueScheduler = {
        let scheduler = QueueScheduler(label: "rwatch.recipe")
        scheduler.queue.setSpecific(key: RecipeQueue.key, value: true)
        return scheduler
    }()
}
