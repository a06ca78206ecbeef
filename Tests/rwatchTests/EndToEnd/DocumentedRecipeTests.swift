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

    /// The `.nf` … `.fi` blocks of a man page that hold a recipe, with
    /// troff's escapes undone.
    static func recipes(inManPage text: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == ".nf" { current = [] ; continue }
            if line == ".fi" {
                if let lines = current, lines.contains(where: { $0.hasPrefix("import RecipeKit") }) {
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

    /// The ```swift blocks of a Markdown file that hold a recipe.
    static func recipes(inMarkdown text: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" { current = []; continue }
            if current != nil, line == "```" {
                if let lines = current, lines.contains(where: { $0.hasPrefix("import RecipeKit") }) {
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
        // A ```swift block that is not a recipe would be checked by nothing.
        let swiftBlocks = readme.split(separator: "\n").filter { $0 == "```swift" }.count
        #expect(recipes.count == swiftBlocks, "README.md has \(swiftBlocks) swift blocks, \(recipes.count) of them recipes")
        checkAll(recipes, named: "readme")
    }

    @Test func extractionUndoesTroffEscapes() {
        let page = ".nf\n.RS\nimport RecipeKit\n\n    .map(\\e.summary) \\-\\-x \\&.a\n.RE\n.fi\n.nf\nnot a recipe\n.fi\n"
        #expect(Self.recipes(inManPage: page) == ["import RecipeKit\n\n    .map(\\.summary) --x .a\n"])
    }
}
