/// One signal of a recipe's body, its value type erased. The runner only
/// needs to know when it ends and which command statuses went through it.
public struct Pipeline: Sendable {
    let outcomes: Signal<Int32?>

    /// Wraps `signal`; values that are `RunResult`s carry their status.
    public init<Value>(_ signal: Signal<Value>) {
        outcomes = signal.map { ($0 as? RunResult)?.status.shellCode }
    }
}
