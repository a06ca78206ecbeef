import Signals
import SystemPackage
import WatchSources

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
