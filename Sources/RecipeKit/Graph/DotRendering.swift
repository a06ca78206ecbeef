/// A recipe's pipelines as a Graphviz DOT `digraph`, one cluster per
/// pipeline, values flowing left to right:
///
///     digraph rwatch {
///       rankdir=LR;
///       node [shape=box];
///       subgraph cluster_1 {
///         label="pipeline 1";
///         p1n0 [label="FileWatcher.watch([\"Sources\"])"];
///         p1n1 [label="debounce(100 ms)"];
///         p1n0 -> p1n1;
///       }
///     }
///
/// Node identifiers are made here, never from a label. Every label is a
/// double-quoted DOT string with `\` and `"` escaped (so `\n`, `\l` or a
/// quote in a file name stay text), after control characters are escaped
/// (`Quoted.line`): a label never ends early or spans lines, and `<`, `>`,
/// `{`, `}` or `->` inside quotes are plain text.
enum DotRendering {
    static func render(_ pipelines: [SignalNode]) -> String {
        let clusters = NodeOrder.clustered(
            pipelines, open: { ["  subgraph cluster_\($0) {", "    label=\"pipeline \($0)\";"] },
            node: { "    \($0) [label=\(quoted($1))];" }, edge: { "    \($0) -> \($1);" }, close: "  }"
        )
        let lines = ["digraph rwatch {", "  rankdir=LR;", "  node [shape=box];"] + clusters + ["}"]
        return lines.map { $0 + "\n" }.joined()
    }

    /// `label` as a double-quoted DOT string.
    static func quoted(_ label: String) -> String {
        var out = "\""
        for scalar in Quoted.line(label).unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
