import Dispatch

/// Where every run action's state changes, one transition at a time,
/// whichever thread the news comes from (a batch, a key, a process's end, a
/// timer). The live world's is `QueueScheduler.recipe`'s serial queue; a
/// world on virtual time runs transitions on its test scheduler's thread.
package struct RecipeQueue: Sendable {
    /// Runs a body later, in order.
    private let later: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Whether the caller is a transition already (then `sync` runs at once).
    private let isCurrent: @Sendable () -> Bool
    /// Runs a body on the queue and waits for it.
    private let wait: @Sendable (() -> Void) -> Void

    /// A queue made of these three.
    package init(later: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void, isCurrent: @escaping @Sendable () -> Bool,
                 wait: @escaping @Sendable (() -> Void) -> Void) {
        self.later = later
        self.isCurrent = isCurrent
        self.wait = wait
    }

    /// Marks `QueueScheduler.recipe`'s queue.
    static let key = DispatchSpecificKey<Bool>()

    /// `QueueScheduler.recipe`'s queue.
    static let live = RecipeQueue(
        later: { QueueScheduler.recipe.queue.async(execute: $0) },
        isCurrent: { DispatchQueue.getSpecific(key: key) == true },
        wait: { body in QueueScheduler.recipe.queue.sync(execute: body) }
    )

    /// Runs `body` on the queue, later.
    func async(_ body: @escaping @Sendable () -> Void) {
        later(body)
    }

    /// Runs `body` on the queue and waits for it; at once when already on
    /// it (a transition's own callee).
    func sync<Result>(_ body: () -> Result) -> Result {
        if isCurrent() { return body() }
        var result: Result?
        wait { result = body() }
        return result!
    }
}
