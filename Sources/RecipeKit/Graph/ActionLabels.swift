import Signals
import SystemPackage
import WatchSources

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

extension RunOptions {
    /// What a run was given beside its words and policy, when not the
    /// default: `name: "server"`, `timeout: 30 s`, `jobs: 4`.
    var parameterLabels: [String] {
        var labels: [String] = []
        if let name { labels.append("name: " + SignalNode.quoted(name)) }
        if let timeout { labels.append("timeout: " + timeout.label) }
        if jobs != 1 { labels.append("jobs: \(jobs)") }
        return labels
    }
}

extension [CommandWord] {
    /// The words as a list of strings: `["swift", "build"]`.
    var parameterLabel: String {
        SignalNode.list(map(\.text))
    }
}
