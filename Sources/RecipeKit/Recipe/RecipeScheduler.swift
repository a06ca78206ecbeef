import Dispatch

extension QueueScheduler {
    /// The serial queue that RecipeKit's operators and actions run their
    /// timers on when a recipe names no scheduler, and where every run
    /// action changes state (`RecipeQueue`): one for the process, made on
    /// first use (not a new queue per call).
    public static let recipe: QueueScheduler = {
        let scheduler = QueueScheduler(label: "rwatch.recipe")
        scheduler.queue.setSpecific(key: RecipeQueue.key, value: true)
        return scheduler
    }()
}

/// Where every run action's state changes: `QueueScheduler.recipe`'s
/// queue, one transition at a time, whichever thread the news comes from
/// (a batch, a key, a process's end, a timer).
enum RecipeQueue {
    /// Marks the recipe queue.
    static let key = DispatchSpecificKey<Bool>()

    /// Runs `body` on the queue, later.
    static func async(_ body: @escaping @Sendable () -> Void) {
        QueueScheduler.recipe.queue.async(execute: body)
    }

    /// Runs `body` on the queue and waits for it; at once when already on
    /// it (a transition's own callee).
    static func sync<Result>(_ body: () -> Result) -> Result {
        let queue = QueueScheduler.recipe.queue
        if DispatchQueue.getSpecific(key: key) == true { return body() }
        return queue.sync(execute: body)
    }
}
