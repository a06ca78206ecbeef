import Glibc

/// A recipe's pipelines as pictures, from the descriptions their
/// operators carry (`SignalNode`): what `rwatch graph` prints, and the
/// line per pipeline `-v` shows when a recipe starts.
///
///     RecipeGraph.render(recipe.pipelineNodes, as: .mermaid)
public enum RecipeGraph {
    /// Set by `rwatch graph` (only) for the recipe binary it starts, to a
    /// `GraphFormat`: the binary prints its picture and exits, subscribing
    /// to nothing.
    public static let variable = "RWATCH_RECIPE_GRAPH"
    /// Set by a hosting rwatch under `-v` for the recipe binary: it lists
    /// its pipelines when it starts (the binary has no `-v` of its own).
    package static let verboseVariable = "RWATCH_VERBOSE_PIPELINES"

    /// `pipelines` drawn in `format`, every line ending in a newline.
    public static func render(_ pipelines: [SignalNode], as format: GraphFormat) -> String {
        switch format {
        case .tree: TreeRendering.render(pipelines)
        case .mermaid: MermaidRendering.render(pipelines)
        case .dot: DotRendering.render(pipelines)
        }
    }

    /// One line per pipeline, in the order values flow:
    /// `pipeline 1: FileWatcher.watch(["."]) → batched(100 ms) → run(…)`.
    public static func lines(_ pipelines: [SignalNode]) -> [String] {
        zip(1..., pipelines).map { "pipeline \($0): " + ChainLine.render($1) }
    }

    /// What `RecipeRunner.run` does first. Asked by `rwatch graph`
    /// (`variable`): prints `recipe`'s picture on standard output and
    /// exits 0 (2, with one line, for an unknown format) before anything
    /// is subscribed. Otherwise, under `-v` (a diagnostics sink installed,
    /// or `verboseVariable` from a hosting rwatch), one line per pipeline.
    /// Evaluates the body only when one of these asks for it.
    static func announce(_ recipe: Recipe) {
        if let format = Recipe.environment(variable) {
            printPicture(recipe, format: format)
        }
        if Diagnostics.isEnabled {
            for line in lines(recipe.pipelineNodes) { Diagnostics.verbose(line) }
        } else if Recipe.environment(verboseVariable) != nil {
            unsetenv(verboseVariable)
            for line in lines(recipe.pipelineNodes) { Terminal.status(line, color: .dim) }
        }
    }

    private static func printPicture(_ recipe: Recipe, format text: String) -> Never {
        guard let format = GraphFormat(rawValue: text) else {
            Terminal.error(GraphFormat.unknown(text))
            exit(2)
        }
        // exit flushes standard output.
        Swift.print(render(recipe.pipelineNodes, as: format), terminator: "")
        exit(0)
    }
}
