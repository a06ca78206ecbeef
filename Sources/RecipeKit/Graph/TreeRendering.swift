/// A recipe's pipelines as an indented tree, in the order values flow:
/// the source first, then each stage on a line of its own. A stage that
/// reads several upstreams (`merge`, `zip`, `takeUntil`) shows each as a
/// branch, then itself:
///
///     pipeline 1
///       ┌ FileWatcher.watch(["Sources"], matching: **/*.swift)
///       │ → debounce(100 ms)
///       ├ Timer.interval(10 s)
///       └→ merge
///       → run(["make"], onBusy: queue)
///
/// Labels are shown with their control characters escaped (`Quoted.line`).
enum TreeRendering {
    static func render(_ pipelines: [SignalNode]) -> String {
        var lines: [String] = []
        for (index, node) in pipelines.enumerated() {
            lines.append("pipeline \(index + 1)")
            lines += flow(node).map { "  " + $0 }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// The lines of `node`'s chain, its upstreams first.
    static func flow(_ node: SignalNode) -> [String] {
        let label = Quoted.line(node.label)
        switch node.upstreams.count {
        case 0:
            return [label]
        case 1:
            return flow(node.upstreams[0]) + ["→ " + label]
        default:
            var lines: [String] = []
            for (index, upstream) in node.upstreams.enumerated() {
                let branch = flow(upstream)
                lines.append((index == 0 ? "┌ " : "├ ") + branch[0])
                lines += branch.dropFirst().map { "│ " + $0 }
            }
            return lines + ["└→ " + label]
        }
    }
}
