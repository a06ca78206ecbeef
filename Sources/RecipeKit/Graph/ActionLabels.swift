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

/// The parameters of `grep` and of `Tail.follow(_:grep:)`.
enum GrepLabel {
    static func parameters(_ pattern: String, _ ignoringCase: Bool) -> [String] {
        [SignalNode.bare(pattern)] + (ignoringCase ? [] : ["ignoringCase: false"])
    }

    static func follow(_ paths: [FilePath], _ start: Tail.Start, _ pattern: String, _ ignoringCase: Bool) -> SignalNode {
        var labels = Tail.parameterLabels(paths, start, nil, .auto)
        labels.insert(contentsOf: ["grep: " + SignalNode.bare(pattern)] + (ignoringCase ? [] : ["ignoringCase: false"]), at: 1)
        return SignalNode("Tail.follow", labels)
    }
}

/// The parameters of `batched`: the quiet time, then what is not the default.
enum BatchedLabel {
    static func parameters(_ quiet: Duration, _ maxWait: Duration, _ holds: NewFileHolds?) -> [String] {
        [quiet.label] + (maxWait == .seconds(1) ? [] : ["maxWait: " + maxWait.label]) + (holds == nil ? [] : ["holdingNewFiles"])
    }
}
