// How the actions name what they were given, for a picture of the
// pipeline (`SignalNode`): built once, when the chain is built.

extension OnBusy {
    /// `queue`, `restart`, `ignore`, `signal(1)`.
    var label: String {
        switch self {
        case .queue: "queue"
        case .restart: "restart"
        case .ignore: "ignore"
        case .signal(let number): "signal(\(number))"
        }
    }
}
