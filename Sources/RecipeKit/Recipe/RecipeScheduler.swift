extension QueueScheduler {
    /// The serial queue that RecipeKit's operators and actions run their
    /// timers on when a recipe names no scheduler: one for the process,
    /// made on first use (not a new queue per call).
    public static let recipe = QueueScheduler(label: "rwatch.recipe")
}
