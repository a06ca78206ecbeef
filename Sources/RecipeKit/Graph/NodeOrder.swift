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
