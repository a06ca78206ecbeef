import Glibc
import Testing
import TestSupport

/// `rwatch graph`: the real binary compiles a recipe and has it print its
/// pipelines, subscribing to nothing.
@Suite struct GraphCommandTests {
    /// The bundled `chain` recipe's steps, given as shell commands (so that
    /// the test's own environment cannot change them).
    private static let steps = ["LINT": "lint-it", "BUILD": "make", "TEST": "make check"]

    @Test func graphOfTheChainRecipeIsATreeAndNothingIsWatched() {
        let scratch = Scratch()
        defer { scratch.remove() }
        // "src" does not exist: a watch armed on it would fail.
        let result = RWatch.run(["graph", "chain", "src"], in: scratch.path, environment: Self.steps, scratch: scratch)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            pipeline 1
              FileWatcher.watch(["src"])
              → batched(100 ms, holdingNewFiles)
              → run(["sh", "-c", "lint-it"], onBusy: queue, name: "lint")
              → then(["sh", "-c", "make"], name: "build")
              → then(["sh", "-c", "make check"], name: "test")
              → map
              → print("chain: ")

            """)
        #expect(access(scratch.file("src"), F_OK) != 0)
    }

    @Test func graphAsDotIsADigraphAndAsMermaidAFlowchart() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let dot = RWatch.run(["graph", "--format", "dot", "chain"], in: scratch.path, environment: Self.steps, scratch: scratch)
        #expect(dot.status == 0, "\(dot.stderr)")
        #expect(dot.stdout.hasPrefix("digraph"))
        #expect(dot.stdout.contains(#"[label="then([\"sh\", \"-c\", \"make\"], name: \"build\")"];"#))
        let mermaid = RWatch.run(["graph", "--format", "mermaid", "chain"], in: scratch.path, environment: Self.steps, scratch: scratch)
        #expect(mermaid.status == 0, "\(mermaid.stderr)")
        #expect(mermaid.stdout.hasPrefix("flowchart LR\n"))
    }

    @Test func badInputIsOneLineAndStatus2() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let format = RWatch.run(["graph", "--format", "svg", "chain"], in: scratch.path, scratch: scratch)
        #expect(format.status == 2)
        #expect(format.stderr.split(separator: "\n").count == 1 && format.stderr.contains("svg"))
        let unknown = RWatch.run(["graph", "no-such-recipe"], in: scratch.path, scratch: scratch)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no-such-recipe"))
        scratch.write("broken.swift", "import RecipeKit\nlet recipe = Recipe(\"broken\") { undefinedThing }\n")
        let broken = RWatch.run(["graph", "broken.swift"], in: scratch.path, scratch: scratch)
        #expect(broken.status == 2)
        #expect(broken.stdout.isEmpty)
    }

    @Test func withoutARecipeTheProjectRecipeIsDrawnAndVerboseListsItsPipelines() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("Sources"), 0o700)
        scratch.write("rwatch.swift", """
            import RecipeKit

            let recipe = Recipe("project", "ticks") {
                Timer.interval(.seconds(90)).throttle(.seconds(10), latest: true).print()
            }

            """)
        mkdir(scratch.file("Sources/deep"), 0o700)
        let graph = RWatch.run(["graph"], in: scratch.file("Sources/deep"), scratch: scratch)
        #expect(graph.status == 0, "\(graph.stderr)")
        #expect(graph.stdout == "pipeline 1\n  Timer.interval(90 s)\n  → throttle(10 s, latest)\n  → print\n")
        let rwatch = RWatch(["-v"], in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        #expect(eventually(.seconds(60)) {
            rwatch.stderr.contains("pipeline 1: Timer.interval(90 s) → throttle(10 s, latest) → print")
        })
    }
}
