/// The stages of one pipeline in the order values flow (each upstream
/// before what reads it), each once however many stages read it, with
/// an identifier of its own: what the Mermaid and DOT renderings number.
struct NodeOrder {
    /// The stages, upstreams first.
    private(set) var nodes: [SignalNode] = []
    /// Each edge, from an upstream's index in `nodes` to its reader's.
    private(set) var edges: [(from: Int, to: Int)] = []
    private var indexes: [ObjectIdentifier: Int] = [:]

    init(_ last: SignalNode) {
        _ = visit(last)
    }

    private mutating func visit(_ node: SignalNode) -> Int {
        if let known = indexes[ObjectIdentifier(node)] { return known }
        let upstreams = node.upstreams.map { visit($0) }
        let index = nodes.count
        nodes.append(node)
        indexes[ObjectIdentifier(node)] = index
        edges += upstreams.map { (from: $0, to: index) }
        return index
    }
}

extension NodeOrder {
    /// The lines of a picture with one cluster per pipeline, its nodes and
    /// edges named `pPnN` (pipeline P, node N): what Mermaid and DOT share.
    /// The format says how a cluster opens and closes, and how a node
    /// (its name and label) and an edge (two names) are written.
    static func clustered(_ pipelines: [SignalNode], open: (Int) -> [String], node: (String, String) -> String,
                          edge: (String, String) -> String, close: String) -> [String] {
        var lines: [String] = []
        for (number, last) in zip(1..., pipelines) {
            let order = NodeOrder(last)
            lines += open(number)
            for (index, stage) in order.nodes.enumerated() { lines.append(node("p\(number)n\(index)", stage.label)) }
            for link in order.edges { lines.append(edge("p\(number)n\(link.from)", "p\(number)n\(link.to)")) }
            lines.append(close)
        }
        return lines
    }
}
