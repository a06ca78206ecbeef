/// The `rwatch.tests.swift` that `rwatch init` writes beside the starter
/// recipe: two tests of what that recipe promises, on virtual time, for
/// `rwatch test` to run, and to copy from.
struct StarterTests {
    let starter: StarterRecipe

    /// A source file the starter watches, where a test saves.
    private var source: String {
        switch starter.kind {
        case .swiftPackage:
            let directory = ["Sources", "Tests"].first(where: starter.existing.contains) ?? "Sources"
            return directory + "/App/main.swift"
        case .cargo: return "src/main.rs"
        case .go: return "main.go"
        case .node: return "index.js"
        case .python: return "app.py"
        case .make: return "main.c"
        case .plain: return "notes.txt"
        }
    }

    /// The build and test commands, or the one command, of the starter.
    private var commands: (build: [String], test: [String]?)? {
        switch starter.kind {
        case .swiftPackage: return (["swift", "build"], ["swift", "test"])
        case .cargo: return (["cargo", "build"], ["cargo", "test"])
        case .go: return (["go", "build", "./..."], ["go", "test", "./..."])
        case .node: return (["npm", "test"], nil)
        case .python: return (["python3", "-m", "pytest", "-q"], nil)
        case .make: return (["make"], nil)
        case .plain: return nil
        }
    }

    /// The file's text.
    var text: String {
        """
        import RecipeTesting
        import Testing

        // rwatch.tests.swift: tests of rwatch.swift, written by `rwatch init`.
        // `rwatch test` runs them on virtual time: the files are a tree in
        // memory, the commands are scripted, nothing is built and nothing
        // sleeps. `man rwatch` (TESTING RECIPES) lists what a test can do.

        let file = "\(source)"


        """ + body
    }

    private var body: String {
        guard let (build, test) = commands else { return plainBody }
        let words = { (words: [String]) in "[" + words.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
        guard let test else { return singleBody(words(build)) }
        return """
            @Test func twoSavesThirtyMillisecondsApartGiveOneBuild() {
                let run = RecipeTest(recipe, files: [file: ""], commands: [.command(\(words(build)), takes: .seconds(2))])
                run.save(file, "first", at: .seconds(10))
                run.save(file, "second", at: .seconds(10) + .milliseconds(30))
                run.advance(to: .seconds(20))
                // Once at start, then once for both saves, 100 ms after the last.
                #expect(run.started.map(\\.words) == [\(words(build)), \(words(test)), \(words(build)), \(words(test))])
                #expect(run.started[2].at == .milliseconds(10_130))
            }

            @Test func aFailingBuildRunsNoTest() {
                let run = RecipeTest(recipe, files: [file: ""], commands: [.command(\(words(build)), exits: 1)])
                run.advance(to: .seconds(5))
                #expect(run.started.map(\\.words) == [\(words(build))])
                #expect(run.finish() == 1)
            }

            """
    }

    private func singleBody(_ command: String) -> String {
        """
        @Test func twoSavesThirtyMillisecondsApartGiveOneRun() {
            let run = RecipeTest(recipe, files: [file: ""], commands: [.command(\(command), takes: .seconds(2))])
            run.save(file, "first", at: .seconds(10))
            run.save(file, "second", at: .seconds(10) + .milliseconds(30))
            run.advance(to: .seconds(20))
            // Once at start, then once for both saves, 100 ms after the last.
            #expect(run.started == [.run(\(command), at: .zero), .run(\(command), at: .milliseconds(10_130))])
        }

        @Test func aFailingRunIsReported() {
            let run = RecipeTest(recipe, files: [file: ""], commands: [.command(\(command), exits: 2)])
            run.advance(to: .seconds(5))
            #expect(run.statusLines.contains { $0.hasPrefix("✗") && $0.contains("exited 2") })
            #expect(run.finish() == 2)
        }

        """
    }

    private var plainBody: String {
        """
        @Test func aSaveIsOneLineNamingTheFile() {
            let run = RecipeTest(recipe, files: [file: ""])
            run.save(file, "first", at: .seconds(1))
            run.save(file, "second", at: .seconds(1) + .milliseconds(30))
            run.advance(to: .seconds(5))
            #expect(run.printed == ["changed: /project/notes.txt"])
        }

        """
    }
}
