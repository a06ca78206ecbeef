import Signals

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
