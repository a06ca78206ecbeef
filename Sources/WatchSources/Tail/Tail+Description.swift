import Signals
import SystemPackage

extension Tail {
    /// What `follow` was given, as the parameters of a pipeline's picture:
    /// `["app.log"], grep: error|warn`, with `from:` and `backend:` when
    /// they are not the defaults.
    package static func parameterLabels(_ paths: [FilePath], _ start: Start, _ pattern: LinePattern?, _ backend: WatchBackend) -> [String] {
        var labels = [paths.parameterLabel]
        if let pattern {
            labels.append("grep: " + SignalNode.bare(pattern.pattern) + (pattern.ignoringCase ? " (ignoring case)" : ""))
        }
        switch start {
        case .end: break
        case .start: labels.append("from: start")
        case .lastLines(let count): labels.append("from: lastLines(\(count))")
        case .line(let number): labels.append("from: line(\(number))")
        case .lastMatching(let count): labels.append("from: lastMatching(\(count))")
        }
        switch backend {
        case .auto: break
        case .inotify: labels.append("backend: inotify")
        case .poll(let interval): labels.append("backend: poll(\(interval.label))")
        }
        return labels
    }
}
