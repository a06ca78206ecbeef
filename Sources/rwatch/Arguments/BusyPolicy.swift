import ArgumentParser

/// `--on-busy`: what to do with a change that arrives while the command runs.
enum BusyPolicy: String, ExpressibleByArgument, CaseIterable {
    case queue, restart, ignore, signal
}
