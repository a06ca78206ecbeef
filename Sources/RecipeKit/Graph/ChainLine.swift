/// A pipeline on one line, in the order values flow, as `-v` prints it
/// when a recipe starts:
///
///     FileWatcher.watch(["."]) → batched(100 ms) → run(["make"], onBusy: queue)
///
/// A stage that reads several upstreams shows them in parentheses,
/// separated by `|`: `(FileWatcher.watch(["a"]) | Timer.interval(10 s)) → merge`.
enum ChainLine {
    static func render(_ node: SignalNode) -> String {
        let label = node.label
        switch node.upstreams.count {
        case 0: return label
        case 1: return render(node.upstreams[0]) + " → " + label
        default: return "(" + node.upstreams.map(render).joined(separator: " | ") + ") → " + label
        }
    }
}
