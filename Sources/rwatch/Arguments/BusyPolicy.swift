import ArgumentParser

/// `--on-busy`: what to do with a change that arrives while the command runs.
/// `do-nothing` is watchexec's word for `ignore`.
enum BusyPolicy: String, ExpressibleByArgument, CaseIterable {
    case queue, restart, ignore, signal
    case doNothing = "do-nothing"

    /// Help and completions offer one word per policy.
    static var allValueStrings: [String] { [queue, restart, ignore, signal].map(\.rawValue) }
}
