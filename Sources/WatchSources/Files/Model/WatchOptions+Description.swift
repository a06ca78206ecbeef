import SystemPackage
import Signals

extension WatchOptions {
    /// What differs from the defaults, as the parameters of a pipeline's
    /// picture (`SignalNode`): `matching: **/*.swift`, `excluding: …`,
    /// `extensions: swift, md`, `backend: poll(1 s)`, `nonRecursive`.
    /// One glob is shown as typed; several as a list.
    package var parameterLabels: [String] {
        var labels: [String] = []
        if !include.isEmpty { labels.append("matching: " + Self.patterns(include)) }
        if !exclude.isEmpty { labels.append("excluding: " + Self.patterns(exclude)) }
        if !extensions.isEmpty { labels.append("extensions: " + extensions.map(SignalNode.bare).joined(separator: ", ")) }
        if !filterFiles.isEmpty { labels.append("filterFiles: " + SignalNode.list(filterFiles)) }
        if !ignoreFiles.isEmpty { labels.append("ignoreFiles: " + SignalNode.list(ignoreFiles)) }
        switch backend {
        case .auto: break
        case .inotify: labels.append("backend: inotify")
        case .poll(let interval): labels.append("backend: poll(\(interval.label))")
        }
        if !recursive { labels.append("nonRecursive") }
        if kinds != Self.allKinds {
            labels.append("kinds: " + kinds.map(\.rawValue).sorted().joined(separator: ", "))
        }
        return labels
    }

    private static func patterns(_ globs: [String]) -> String {
        globs.count == 1 ? SignalNode.bare(globs[0]) : SignalNode.list(globs)
    }
}

extension [FilePath] {
    /// These paths as a parameter of a pipeline's picture: `["Sources", "Tests"]`.
    package var parameterLabel: String {
        SignalNode.list(map(\.string))
    }
}
