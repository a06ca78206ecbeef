@testable import RecipeKit
import Testing

/// `rwatch graph`'s pictures of a recipe (`RecipeGraph`), from the
/// descriptions the operators carry. Building the recipe subscribes to
/// nothing: no watch is armed, no command runs.
@Suite struct RecipeGraphTests {
    /// The bundled `chain` recipe's shape, for DIR `.`.
    private let chain = Recipe("chain", "lint → build → test") {
        FileWatcher.watch(["."])
            .batched(.milliseconds(100), holdingNewFiles: .shared)
            .run(["swift", "format", "lint", "--recursive", "./Sources"], options: RunOptions(name: "lint"))
            .then(["swift", "build", "--package-path", "."], options: RunOptions(name: "build"))
            .then(["swift", "test", "--package-path", "."], options: RunOptions(name: "test"))
            .map(\.summary)
            .print("chain: ", color: .cyan)
    }

    private static let chainLabels = [
        #"FileWatcher.watch(["."])"#,
        "batched(100 ms, holdingNewFiles)",
        #"run(["swift", "format", "lint", "--recursive", "./Sources"], onBusy: queue, name: "lint")"#,
        #"then(["swift", "build", "--package-path", "."], name: "build")"#,
        #"then(["swift", "test", "--package-path", "."], name: "test")"#,
        "map",
        #"print("chain: ")"#,
    ]

    @Test func theChainRecipeIsATreeFromItsSourceToItsLastAction() {
        let tree = RecipeGraph.render(chain.pipelineNodes, as: .tree)
        let expected = ["pipeline 1", "  " + Self.chainLabels[0]] + Self.chainLabels.dropFirst().map { "  → " + $0 }
        #expect(tree == expected.map { $0 + "\n" }.joined())
    }

    @Test func theChainRecipeIsAMermaidFlowchart() {
        let mermaid = RecipeGraph.render(chain.pipelineNodes, as: .mermaid)
        var expected = ["flowchart LR", #"  subgraph p1["pipeline 1"]"#]
        expected += Self.chainLabels.enumerated().map { "    p1n\($0)[\"\(MermaidRendering.escaped($1))\"]" }
        expected += (1..<Self.chainLabels.count).map { "    p1n\($0 - 1) --> p1n\($0)" }
        expected.append("  end")
        #expect(mermaid == expected.map { $0 + "\n" }.joined())
        #expect(mermaid.contains(#"p1n2["run([#34;swift#34;, #34;format#34;, "#))
    }

    @Test func theChainRecipeIsADotDigraph() {
        let dot = RecipeGraph.render(chain.pipelineNodes, as: .dot)
        var expected = ["digraph rwatch {", "  rankdir=LR;", "  node [shape=box];", "  subgraph cluster_1 {", #"    label="pipeline 1";"#]
        expected += Self.chainLabels.enumerated().map { "    p1n\($0) [label=\(DotRendering.quoted($1))];" }
        expected += (1..<Self.chainLabels.count).map { "    p1n\($0 - 1) -> p1n\($0);" }
        expected += ["  }", "}"]
        #expect(dot == expected.map { $0 + "\n" }.joined())
        #expect(dot.contains(#"p1n0 [label="FileWatcher.watch([\".\"])"];"#))
    }

    @Test func theChainRecipeIsOneLineForVerbose() {
        #expect(RecipeGraph.lines(chain.pipelineNodes) == ["pipeline 1: " + Self.chainLabels.joined(separator: " → ")])
    }

    @Test func aMergeShowsItsUpstreamsAsBranches() {
        let recipe = Recipe("both", "") {
            Signal.merge([
                FileWatcher.watch(["Sources"], options: .matching("**/*.swift")).debounce(.milliseconds(100)),
                Timer.interval(.seconds(10)).map { _ in FileEvent(path: "tick", kind: .modified) },
            ])
            .batched(.zero)
            .run(["make"], onBusy: .restart)
        }
        let tree = RecipeGraph.render(recipe.pipelineNodes, as: .tree)
        #expect(tree == """
            pipeline 1
              ┌ FileWatcher.watch(["Sources"], matching: **/*.swift)
              │ → debounce(100 ms)
              ├ Timer.interval(10 s)
              │ → map
              └→ merge
              → batched(0 s)
              → run(["make"], onBusy: restart)

            """)
        #expect(RecipeGraph.lines(recipe.pipelineNodes) == [
            #"pipeline 1: (FileWatcher.watch(["Sources"], matching: **/*.swift) → debounce(100 ms) | Timer.interval(10 s) → map) → merge → batched(0 s) → run(["make"], onBusy: restart)"#,
        ])
        let dot = RecipeGraph.render(recipe.pipelineNodes, as: .dot)
        #expect(dot.contains("p1n1 -> p1n4;") && dot.contains("p1n3 -> p1n4;"))
    }

    @Test func everyPipelineOfTheBodyIsDrawnInOrder() {
        let recipe = Recipe("two", "") {
            Tail.follow(["app.log"], grep: "error|warn").print()
            Signal.from([1, 2])
        }
        #expect(RecipeGraph.render(recipe.pipelineNodes, as: .tree) == """
            pipeline 1
              Tail.follow(["app.log"], grep: error|warn)
              → print
            pipeline 2
              Signal

            """)
    }

    @Test func sourcesAndActionsNameWhatTheyWereGiven() {
        let labels = SignalNode.recording {
            [
                Timer.after(.seconds(5)).node?.label,
                Stdin.lines.node?.label,
                ProcessSource.run(["ls", "-l"]).node?.label,
                FileWatcher.batches(["a"], options: WatchOptions(exclude: ["*.o"], backend: .poll(interval: .seconds(1)))).node?.label,
                Tail.follow(["x.log"], from: .lastLines(10), grep: "e|w", ignoringCase: false).node?.label,
                Tail.follow(["y.log"]).grep("fatal").node?.label,
            ]
        }
        #expect(labels == [
            "Timer.after(5 s)",
            "Stdin.lines",
            #"ProcessSource.run(["ls", "-l"])"#,
            #"FileWatcher.batches(["a"], excluding: *.o, backend: poll(1 s))"#,
            #"Tail.follow(["x.log"], grep: e|w, ignoringCase: false, from: lastLines(10))"#,
            "grep(fatal)",
        ])
        let recipe = Recipe("actions", "") {
            FileWatcher.watch(["."]).settlingVCS(of: ["."]).batched(.milliseconds(50), maxWait: .seconds(2))
                .startingNow().notify(["notify-send", "saved"])
                .run(["make"], onBusy: .signal(1), options: RunOptions(timeout: .seconds(30), jobs: 2))
        }
        #expect(RecipeGraph.lines(recipe.pipelineNodes) == [
            #"pipeline 1: FileWatcher.watch(["."]) → settlingVCS(["."]) → batched(50 ms, maxWait: 2 s) → startingNow"#
                + #" → notify(["notify-send", "saved"]) → run(["make"], onBusy: signal(1), timeout: 30 s, jobs: 2)"#,
        ])
    }

    // MARK: hostile labels

    /// Labels a file name or a pattern could make.
    private static let hostile = [
        #"a"b"#, "new\nline", "x --> y", "}{", #"back\slash"#, "<b>bold</b>", "#quot; & `code`", "end\\",
    ]

    /// What a label shows once escaped for a terminal.
    private func visible(_ label: String) -> String { Quoted.line(label) }

    /// A Mermaid label's text, entity codes decoded; nil if it holds a
    /// character it must not.
    private func decodedMermaid(_ text: Substring) -> String? {
        guard !text.contains(where: { "\"<>&`\\{}\n".contains($0) }) else { return nil }
        var out = ""
        var rest = text[...]
        while let hash = rest.firstIndex(of: "#") {
            out += rest[..<hash]
            guard let semicolon = rest[hash...].firstIndex(of: ";"),
                  let value = UInt32(rest[rest.index(after: hash)..<semicolon]),
                  let scalar = Unicode.Scalar(value) else { return nil }
            out.unicodeScalars.append(scalar)
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }

    @Test(arguments: hostile)
    func aHostileLabelStaysOneMermaidLabel(label: String) {
        let node = SignalNode("FileWatcher.watch", [SignalNode.list([label]), "matching: " + label])
        let mermaid = RecipeGraph.render([node], as: .mermaid)
        let lines = mermaid.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5)  // flowchart, subgraph, the node, end, ""
        let line = lines[2]
        #expect(line.hasPrefix(#"    p1n0[""#) && line.hasSuffix(#""]"#))
        let inner = line.dropFirst(#"    p1n0[""#.count).dropLast(2)
        #expect(!inner.contains("\""))
        #expect(!inner.contains("-->"))
        #expect(decodedMermaid(inner) == visible(node.label))
    }

    /// A DOT string's text, escapes undone, and what follows its closing quote.
    private func decodedDot(_ text: Substring) -> (text: String, rest: Substring)? {
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" { return (out, text[text.index(after: index)...]) }
            if character == "\\" {
                index = text.index(after: index)
                guard index < text.endIndex else { return nil }
            }
            out.append(text[index])
            index = text.index(after: index)
        }
        return nil
    }

    @Test(arguments: hostile)
    func aHostileLabelStaysOneDotString(label: String) {
        let node = SignalNode("Tail.follow", [SignalNode.list([label]), "grep: " + label])
        let dot = RecipeGraph.render([node], as: .dot)
        let lines = dot.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 9)  // digraph, rankdir, node, subgraph, label, the node, }, }, ""
        let line = lines[5]
        #expect(line.hasPrefix(#"    p1n0 [label=""#))
        let decoded = decodedDot(line.dropFirst(#"    p1n0 [label=""#.count))
        #expect(decoded?.rest == "];")
        // A backslash left single would have been read as an escape
        // (\n, \l, \N) and decoded to something else.
        #expect(decoded?.text == visible(node.label))
    }
}
