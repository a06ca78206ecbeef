import Glibc
import Testing
import TestSupport

/// Every recipe the docs show compiles: they are taken from the man page
/// and the README here, so they cannot drift from RecipeKit.
@Suite struct DocumentedRecipeTests {
    /// The repository root, from this file's path.
    private static let root: String = {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    /// The `.nf` … `.fi` blocks of a man page that hold a recipe (or, with
    /// `importing: "RecipeTesting"`, a recipe's tests), with troff's escapes undone.
    static func recipes(inManPage text: String, importing module: String = "RecipeKit") -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == ".nf" { current = [] ; continue }
            if line == ".fi" {
                if let lines = current, lines.contains(where: { $0.hasPrefix("import \(module)") }) {
                    blocks.append(lines.joined(separator: "\n") + "\n")
                }
                current = nil
                continue
            }
            guard current != nil, !line.hasPrefix(".") else { continue }
            current?.append(untroff(String(line)))
        }
        return blocks
    }

    /// `\e` is a backslash, `\-` a minus, `\&` nothing, `\(aq` and `\(dq` quotes.
    static func untroff(_ line: String) -> String {
        var text = line
        for (escape, plain) in [("\\e", "\\"), ("\\-", "-"), ("\\&", ""), ("\\(aq", "'"), ("\\(dq", "\"")] {
            text = text.replacing(escape, with: plain)
        }
        return text
    }

    /// The ```swift blocks of a Markdown file that hold a recipe (or, with
    /// `importing: "RecipeTesting"`, a recipe's tests).
    static func recipes(inMarkdown text: String, importing module: String = "RecipeKit") -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" { current = []; continue }
            if current != nil, line == "```" {
                if let lines = current, lines.contains(where: { $0.hasPrefix("import \(module)") }) {
                    blocks.append(lines.joined(separator: "\n") + "\n")
                }
                current = nil
                continue
            }
            current?.append(String(line))
        }
        return blocks
    }

    private func checkAll(_ recipes: [String], named name: String) {
        let scratch = Scratch()
        defer { scratch.remove() }
        for (index, recipe) in recipes.enumerated() {
            let file = "\(name)-\(index + 1).swift"
            scratch.write(file, recipe)
            let result = RWatch.run(["check", file], in: scratch.path, scratch: scratch)
            #expect(result.status == 0, "\(name) recipe \(index + 1) does not compile:\n\(recipe)\n\(result.stderr)")
        }
    }

    /// Each documented test, beside the documented recipe shown before it
    /// in the same text, passes under `rwatch test`.
    private func testAll(_ tests: [String], in text: String, named name: String, recipes: (String) -> [String]) {
        let scratch = Scratch()
        defer { scratch.remove() }
        for (index, test) in tests.enumerated() {
            // Where it stands: its first `@Test` line (no troff escape in it).
            let mark = test.split(separator: "\n").first { $0.hasPrefix("@Test") }.map(String.init) ?? test
            let before = String(text[..<(text.firstRange(of: mark)?.lowerBound ?? text.startIndex)])
            guard let recipe = recipes(before).last else {
                Issue.record("\(name) test \(index + 1) has no recipe before it")
                continue
            }
            scratch.write("\(name)-\(index + 1).swift", recipe)
            scratch.write("\(name)-\(index + 1).tests.swift", test)
            let result = RWatch.run(["test", "./\(name)-\(index + 1).swift"], in: scratch.path, scratch: scratch)
            #expect(result.status == 0, "\(name) test \(index + 1) fails:\n\(test)\n\(result.stdout)\(result.stderr)")
        }
    }

    @Test func everyTestInTheManPageAndTheReadmePasses() {
        let page = Scratch.read(Self.root + "/man/rwatch.1")
        let manTests = Self.recipes(inManPage: page, importing: "RecipeTesting")
        #expect(manTests.count == 1)
        testAll(manTests, in: page, named: "man") { Self.recipes(inManPage: $0) }
        let readme = Scratch.read(Self.root + "/README.md")
        let readmeTests = Self.recipes(inMarkdown: readme, importing: "RecipeTesting")
        #expect(readmeTests.count == 1)
        testAll(readmeTests, in: readme, named: "readme") { Self.recipes(inMarkdown: $0) }
    }

    @Test func everyRecipeInTheManPageCompiles() {
        let page = Scratch.read(Self.root + "/man/rwatch.1")
        let recipes = Self.recipes(inManPage: page)
        // The RECIPES example and the five of WRITING RECIPES, at least.
        #expect(recipes.count >= 6, "found \(recipes.count) recipes in man/rwatch.1")
        let writing = page.split(separator: ".SH ").first { $0.hasPrefix("WRITING RECIPES") }.map(String.init) ?? ""
        #expect(Self.recipes(inManPage: writing).count == 5)
        checkAll(recipes, named: "man")
    }

    @Test func everyRecipeInTheReadmeCompiles() {
        let readme = Scratch.read(Self.root + "/README.md")
        let recipes = Self.recipes(inMarkdown: readme)
        #expect(recipes.count >= 2, "found \(recipes.count) recipes in README.md")
        // A ```swift block that is neither a recipe nor a recipe's tests would be checked by nothing.
        let swiftBlocks = readme.split(separator: "\n").filter { $0 == "```swift" }.count
        let tests = Self.recipes(inMarkdown: readme, importing: "RecipeTesting").count
        #expect(recipes.count + tests == swiftBlocks, "README.md has \(swiftBlocks) swift blocks, \(recipes.count) recipes, \(tests) tests")
        checkAll(recipes, named: "readme")
    }

    @Test func extractionUndoesTroffEscapes() {
        let page = ".nf\n.RS\nimport RecipeKit\n\n    .map(\\e.summary) \\-\\-x \\&.a\n.RE\n.fi\n.nf\nnot a recipe\n.fi\n"
        #expect(Self.recipes(inManPage: page) == ["import RecipeKit\n\n    .map(\\.summary) --x .a\n"])
    }
}
