/// A recipe's pipelines as a Mermaid `flowchart`, one subgraph per
/// pipeline, values flowing left to right:
///
///     flowchart LR
///       subgraph p1["pipeline 1"]
///         p1n0["FileWatcher.watch([#34;.#34;])"]
///         p1n1["batched(100 ms)"]
///         p1n0 --> p1n1
///       end
///
/// Node identifiers are made here, never from a label. Every label is in
/// double quotes, with each character outside a small safe set (letters,
/// digits, space and `.,:_/*+=?!@~'()[]-`) written as Mermaid's entity code
/// `#NNN;`: a quote, a `#`, `<`, `>`, `&`, a backtick, a brace or a
/// backslash in a file name or a pattern can neither end the label nor
/// become markup. Control characters are escaped first (`Quoted.line`).
enum MermaidRendering {
    static func render(_ pipelines: [SignalNode]) -> String {
        let clusters = NodeOrder.clustered(
            pipelines, open: { ["  subgraph p\($0)[\"pipeline \($0)\"]"] },
            node: { "    \($0)[\"\(escaped($1))\"]" }, edge: { "    \($0) --> \($1)" }, close: "  end"
        )
        return (["flowchart LR"] + clusters).map { $0 + "\n" }.joined()
    }

    /// `label` for inside a double-quoted Mermaid label.
    static func escaped(_ label: String) -> String {
        var out = ""
        for scalar in Quoted.line(label).unicodeScalars {
            if isSafe(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                out += "#\(scalar.value);"
            }
        }
        return out
    }

    private static func isSafe(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        let character = Character(scalar)
        return character.isLetter || character.isNumber || " .,:_/*+=?!@~'()[]-".unicodeScalars.contains(scalar)
    }
}
