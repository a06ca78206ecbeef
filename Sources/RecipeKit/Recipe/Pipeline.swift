/// One signal of a recipe's body, its value type erased. The runner only
/// needs to know when it ends and which command statuses went through it.
public struct Pipeline: Sendable {
    let outcomes: Signal<Int32?>
    /// The description of the signal written in the body, taken before
    /// the runner's own `map`: what `rwatch graph` draws. Nil when that
    /// signal has none (made with `Signal { … }`).
    public let node: SignalNode?

    /// Wraps `signal`; values that are `RunResult`s carry their status.
    public init<Value>(_ signal: Signal<Value>) {
        node = signal.node
        outcomes = signal.map { ($0 as? RunResult)?.status.shellCode }
    }
}
