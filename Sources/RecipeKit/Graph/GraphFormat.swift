/// How `rwatch graph` draws a recipe's pipelines.
public enum GraphFormat: String, Sendable, CaseIterable {
    /// An indented tree, sources first, each stage with its parameters;
    /// a stage reading several upstreams shows them as branches.
    case tree
    /// A Mermaid `flowchart`, for a README or a browser.
    case mermaid
    /// A Graphviz DOT `digraph`.
    case dot

    /// The one-line error for a format that is none of these.
    public static func unknown(_ text: String) -> String {
        "unknown graph format \(Quoted.path(text)): use " + allCases.map(\.rawValue).joined(separator: ", ")
    }
}
